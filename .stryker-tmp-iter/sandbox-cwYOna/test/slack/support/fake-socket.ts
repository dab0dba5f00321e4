// @ts-nocheck
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** One WebSocket frame from the server: FIN set, unmasked (RFC 6455 §5.2). */
function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65536
        ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(len)]);
  return Buffer.concat([head, payload]);
}

function bigLength(len: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(len));
  return b;
}

/** Reads whole client frames (always masked) off the front of `buf`. */
function readFrames(buf: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  while (buf.length - at >= 6) {
    const opcode = (buf[at] ?? 0) & 0x0f;
    let len = (buf[at + 1] ?? 0) & 0x7f;
    let offset = at + 2;
    if (len === 126) {
      len = buf.readUInt16BE(offset);
      offset += 2;
    } else if (len === 127) {
      len = Number(buf.readBigUInt64BE(offset));
      offset += 8;
    }
    if (buf.length < offset + 4 + len) break;
    const mask = buf.subarray(offset, offset + 4);
    const payload = Buffer.from(buf.subarray(offset + 4, offset + 4 + len));
    for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
    frames.push({ opcode, payload });
    at = offset + 4 + len;
  }
  return { frames, rest: buf.subarray(at) };
}

/**
 * Slack's Socket Mode endpoint for tests: accepts one WebSocket, says hello, sends envelopes and
 * collects the app's acknowledgements ({ envelope_id, payload? }).
 */
export class FakeSocketMode {
  readonly acks: Record<string, unknown>[] = [];
  private server?: Server;
  private socket?: Duplex;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((_req, res) => res.writeHead(426).end());
    this.server.on('upgrade', (req, socket) => this.accept(req, socket));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/link`;
  }

  async stop(): Promise<void> {
    this.socket?.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  get connected(): boolean {
    return this.socket !== undefined;
  }

  /** Sends an envelope as Slack does: `{ envelope_id, type, payload, accepts_response_payload }`. */
  send(envelope: Record<string, unknown>): void {
    this.socket?.write(frame(0x1, Buffer.from(JSON.stringify(envelope))));
  }

  private accept(req: IncomingMessage, socket: Duplex): void {
    const key = req.headers['sec-websocket-key'] ?? '';
    const accept = createHash('sha1').update(`${key}${GUID}`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    this.socket = socket;
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const f of frames) this.onFrame(socket, f.opcode, f.payload);
    });
    socket.on('error', () => undefined);
    this.send({
      type: 'hello',
      num_connections: 1,
      debug_info: { host: 'fake' },
      connection_info: { app_id: 'A1' },
    });
  }

  private onFrame(socket: Duplex, opcode: number, payload: Buffer): void {
    if (opcode === 0x9) socket.write(frame(0xa, payload));
    else if (opcode === 0x8) socket.end(frame(0x8, payload));
    else if (opcode === 0x1) this.acks.push(JSON.parse(payload.toString('utf8')) as Record<string, unknown>);
  }
}
