/** A loopback host (127.0.0.0/8, ::1, localhost), as `URL.hostname` spells it. */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
