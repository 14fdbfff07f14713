/**
 * protodef's compiled packet code kept on disk (src/upstream/protodef.ts): the cached code reads
 * and writes every packet as protodef's own does, a second compile in another process reads the
 * files instead of generating, and a broken file falls back to protodef's path. The generated code
 * of every state and direction of the version under test refers to nothing the cache module
 * does not give it (the condition for running it outside protodef's `eval`).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, test, vi } from 'vitest';
import { cacheProtodefCode, protodefCacheDir } from '../../src/upstream/protodef.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const require = createRequire(import.meta.url);
const dir = path.join(mkdtempSync(path.join(tmpdir(), 'protodef-cache-')), 'protodef-x');
// This file's compiles go through the cache in `dir` (the patch is process-wide: a test file run
// before in the same worker may have installed it), and back to the project's folder after.
expect(['applied', 'applied before']).toContain(cacheProtodefCode(dir));
afterAll(() => {
  cacheProtodefCode(protodefCacheDir());
  rmSync(path.dirname(dir), { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

interface Compiler {
  generate(): string;
}
interface ProtoDefCompiler {
  readCompiler: Compiler;
  writeCompiler: Compiler;
  sizeOfCompiler: Compiler;
  addTypes(types: unknown): void;
  addProtocol(protocol: unknown, path: string[]): void;
  compileProtoDefSync(options?: { printCode?: boolean }): Compiled;
}
interface Compiled {
  createPacketBuffer(type: string, packet: unknown): Buffer;
  parsePacketBuffer(type: string, buffer: Buffer): { data: unknown };
}
const protodef = require('protodef') as {
  Compiler: { ProtoDefCompiler: new () => ProtoDefCompiler; ReadCompiler: { prototype: Compiler } };
};
const protocol = (require('minecraft-data') as (v: string) => { protocol: unknown })(TEST_VERSION).protocol;

/** A compiler for `state`/`direction` of the version under test, set up as minecraft-protocol sets it up. */
function compilerFor(state: string, direction: 'toClient' | 'toServer'): ProtoDefCompiler {
  const compiler = new protodef.Compiler.ProtoDefCompiler();
  compiler.addTypes(require('minecraft-protocol/src/datatypes/compiler-minecraft'));
  compiler.addProtocol(protocol, [state, direction]);
  (require('prismarine-nbt') as { addTypesToCompiler(kind: string, compiler: unknown): void }).addTypesToCompiler('big', compiler);
  return compiler;
}

/** protodef's own compile, through the `printCode` path the cache leaves alone (its output silenced). */
function uncached(state: string, direction: 'toClient' | 'toServer'): Compiled {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  const compiled = compilerFor(state, direction).compileProtoDefSync({ printCode: true });
  vi.restoreAllMocks();
  return compiled;
}

const SAMPLES: [state: string, direction: 'toClient' | 'toServer', packet: { name: string; params: Record<string, unknown> }][] = [
  [
    'handshaking',
    'toServer',
    { name: 'set_protocol', params: { protocolVersion: 769, serverHost: 'localhost', serverPort: 25565, nextState: 2 } },
  ],
  ['login', 'toClient', { name: 'compress', params: { threshold: 256 } }],
  ['play', 'toServer', { name: 'chat_command', params: { command: 'time set day' } }],
  ['play', 'toClient', { name: 'update_health', params: { health: 17.5, food: 12, foodSaturation: 3.25 } }],
  ['play', 'toClient', { name: 'kick_disconnect', params: { reason: { type: 'string', value: 'bye' } } }],
];

test('the cached code writes and reads packets byte for byte as protodef does; a second compile reads the files', () => {
  const generate = vi.spyOn(protodef.Compiler.ReadCompiler.prototype, 'generate');
  for (const [state, direction, packet] of SAMPLES) {
    const ours = compilerFor(state, direction).compileProtoDefSync();
    const theirs = uncached(state, direction);
    const bytes = ours.createPacketBuffer('packet', packet);
    expect(bytes).toEqual(theirs.createPacketBuffer('packet', packet));
    expect(ours.parsePacketBuffer('packet', bytes).data).toEqual(theirs.parsePacketBuffer('packet', bytes).data);
  }
  // One file per compiled protocol (prismarine-nbt's own, compiled as it loads, among them), each
  // with V8's code cache beside it.
  const files = readdirSync(dir);
  expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(4);
  expect(files.filter((f) => f.endsWith('.js.v8')).length).toBe(files.filter((f) => f.endsWith('.js')).length);
  // Compiled again (as another process would, the in-memory protocol caches aside): no generation.
  const generatedBefore = generate.mock.calls.length;
  generate.mockClear();
  const again = compilerFor('play', 'toClient').compileProtoDefSync();
  expect(generate).not.toHaveBeenCalled();
  expect(generatedBefore).toBeGreaterThan(0);
  const packet = SAMPLES[3]![2];
  expect(again.parsePacketBuffer('packet', again.createPacketBuffer('packet', packet)).data).toEqual(packet);
});

test('a broken cached file is removed and protodef compiles as before, saying once that the cache is off', () => {
  const cached = () => readdirSync(dir).filter((name) => name.endsWith('.js'));
  expect(cached().length).toBeGreaterThan(0);
  for (const name of cached()) writeFileSync(path.join(dir, name), '(function ( {'); // cut short
  const before = cached().length;
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const compiled = compilerFor('play', 'toClient').compileProtoDefSync();
  const packet = SAMPLES[3]![2];
  expect(compiled.parsePacketBuffer('packet', compiled.createPacketBuffer('packet', packet)).data).toEqual(packet);
  expect(cached().length).toBe(before - 1);
  // Later compiles take protodef's path without trying the cache again: one line in all.
  compilerFor('login', 'toClient').compileProtoDefSync();
  expect(stderr.mock.calls.map(([text]) => String(text))).toEqual([
    expect.stringMatching(/^protodef code cache off \(.*\): .*compiling in memory as protodef does\n$/),
  ]);
});

test('the generated code refers only to native, PartialReadError, Buffer, Error and undefined, in every state and direction', async () => {
  const espree = (await import('espree')) as unknown as { parse(code: string, options: object): unknown };
  const eslintScope = (await import('eslint-scope')) as unknown as {
    analyze(ast: unknown, options: object): { globalScope: { through: { identifier: { name: string } }[] } };
  };
  const free = new Set<string>();
  let codes = 0;
  for (const state of ['handshaking', 'status', 'login', 'configuration', 'play'])
    for (const direction of ['toClient', 'toServer'] as const) {
      if (!(protocol as Record<string, unknown>)[state]) continue;
      const compiler = compilerFor(state, direction);
      for (const part of [compiler.sizeOfCompiler, compiler.writeCompiler, compiler.readCompiler]) {
        const code = `(function (native, PartialReadError) { return (${part.generate()})() })`;
        const scope = eslintScope.analyze(espree.parse(code, { ecmaVersion: 2024, range: true }), { ecmaVersion: 2024 });
        for (const ref of scope.globalScope.through) free.add(ref.identifier.name);
        codes++;
      }
    }
  expect(codes).toBeGreaterThanOrEqual(24);
  for (const name of free) expect(['Buffer', 'Error', 'undefined']).toContain(name);
});
