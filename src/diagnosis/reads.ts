/** The chunks, telling `onRead` of each once the reader asks for the next (it is done with it). */
export async function* reportingReads(
  chunks: AsyncIterable<Uint8Array>,
  onRead: ((bytes: number) => void) | undefined,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    yield chunk;
    onRead?.(chunk.length);
  }
}
