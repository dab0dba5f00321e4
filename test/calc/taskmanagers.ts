/** GET /taskmanagers for two TaskManagers with one free slot each, 1 core and 300 MB of task heap free. */
export const TWO_SMALL_TASKMANAGERS = (() => {
  const free = {
    cpuCores: 1,
    // The REST API sends resource figures in MB.
    taskHeapMemory: 300,
    taskOffHeapMemory: 0,
    managedMemory: 0,
    networkMemory: 0,
  };
  return JSON.stringify({
    taskmanagers: [
      { id: 'a', slotsNumber: 1, freeSlots: 1, freeResource: free },
      { id: 'b', slotsNumber: 1, freeSlots: 1, freeResource: free },
    ],
  });
})();
