/**
 * The MCP server over stdio (the client starts this process and talks over its stdin and stdout):
 * stdout carries the protocol and nothing else. Whatever else writes to stdout (a library's
 * `console.log`) goes to stderr instead, with the log.
 */
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpHub } from './session.ts';

/**
 * Keeps stdout for the protocol: returns a stream that writes to the real stdout, and sends every
 * other write to stdout (`console.log`, `process.stdout.write`) to stderr from now on. Call it
 * before anything may print.
 */
export function takeStdout(): Writable {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout);
  const protocol = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (write(chunk)) done();
      else stdout.once('drain', () => done());
    },
  });
  const stderr = process.stderr;
  stdout.write = stderr.write.bind(stderr);
  return protocol;
}

/**
 * Serves one session of `hub` over this process's stdin and `out` (see {@link takeStdout}).
 *
 * @returns `closed`, which resolves when the client ends the session (closes stdin); the
 *   session is closed by then.
 */
export async function serveStdio(hub: McpHub, out: Writable): Promise<{ closed: Promise<void> }> {
  const session = hub.session();
  const transport = new StdioServerTransport(process.stdin, out);
  const closed = new Promise<void>((resolve) => {
    const end = () => {
      process.stdin.off('end', end);
      process.stdin.off('close', end);
      void session.close().then(resolve);
    };
    process.stdin.once('end', end);
    process.stdin.once('close', end);
    transport.onclose = () => resolve();
  });
  await session.server.connect(transport);
  return { closed };
}
