/** Sign text: the plain-text form of `update_sign` lines, the packet clients get, and persistence in the block-entity store. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import minecraftData from 'minecraft-data';
import { BlockEntityStore } from '../../src/server/services/block-entities.ts';
import { signLine, signPacket } from '../../src/server/features/signs.ts';
import type { SquidServer, SquidWorld } from '../../src/server/types.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const overworld = {} as SquidWorld;
const serv = { registry: minecraftData(TEST_VERSION), overworld, netherworld: {} } as unknown as SquidServer;
let folder: string | undefined;

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('sign text', () => {
  test('update_sign lines are JSON text or plain text', () => {
    expect(signLine('"Iron mine"')).toBe('Iron mine');
    expect(signLine('{"text":"east"}')).toBe('east');
    expect(signLine('plain words')).toBe('plain words');
    expect(signLine('""')).toBe('');
    expect(signLine(undefined)).toBe('');
  });

  test('the text survives a save and a reload of the store, and is sent as four messages (JSON text before 1.21.5)', () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'signs-'));
    const file = path.join(folder, 'block_entities.json');
    const store = new BlockEntityStore(serv, file);
    const sign = store.getOrCreate(overworld, { x: 3, y: 64, z: -2 }, 'oak_sign', 0);
    sign.text = { front: ['Iron mine', 'to the east'], back: [] };
    store.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).entities[0].text.front).toEqual(['Iron mine', 'to the east']);

    const reloaded = new BlockEntityStore(serv, file).get(overworld, { x: 3, y: 64, z: -2 });
    expect(reloaded?.kind).toBe('oak_sign');
    expect(reloaded?.text?.front).toEqual(['Iron mine', 'to the east']);
    const packet = signPacket(serv, reloaded!) as {
      location: unknown;
      nbtData: { value: { front_text: { value: { messages: { value: { value: string[] } } } } } };
    };
    expect(packet.location).toEqual({ x: 3, y: 64, z: -2 });
    const lines = ['Iron mine', 'to the east', '', ''];
    expect(packet.nbtData.value.front_text.value.messages.value.value).toEqual(
      serv.registry.version['<']('1.21.5') ? lines.map((text) => JSON.stringify({ text })) : lines,
    );
  });
});
