/**
 * "A person with a vanilla client can join": minecraft-protocol's own client (no mineflayer)
 * joins the embedded server and must decode every packet the server and our mechanics send
 * (chunks, player list, health, abilities, game mode, block changes, item entities, sleep
 * metadata, death and respawn) without a single error.
 */
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { connectBot, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';
import { useBed } from '../../src/server/features/beds.ts';
import { stateOf } from '../../src/server/services/blocks.ts';
import { giveItems } from '../../src/server/services/inventory.ts';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const mc: any = require('minecraft-protocol');

describe('vanilla protocol client', () => {
  test('joins and decodes every packet of the block and player mechanics', async () => {
    const server = await startTestServer();
    const errors: unknown[] = [];
    const seen = new Set<string>();
    const client = mc.createClient({ host: server.host, port: server.port, username: 'Vanilla', version: server.version, auth: 'offline' });
    try {
      client.on('error', (err: unknown) => errors.push(err));
      client.on('packet', (_data: unknown, meta: { name: string; state: string }) => {
        if (meta.state === 'play') seen.add(meta.name);
      });
      // Answer teleports like a vanilla client.
      client.on('position', (p: { teleportId: number }) => client.write('teleport_confirm', { teleportId: p.teleportId }));
      await waitUntil(() => server.serv.players.some((p: { username: string }) => p.username === 'Vanilla'), 'vanilla client joins');
      const player = serverPlayer(server, 'Vanilla');
      await waitUntil(() => seen.has('map_chunk'), 'chunks');
      const bot = await connectBot(server, 'Neighbour');
      const s = server.serv;
      const base = player.position.floored();

      giveItems(player, 'bread', 3);
      player.setGameMode(1);
      player.setGameMode(0);
      player.foodSaturation = 0;
      player.updateFood(10);
      // Eating: use_item, then the "finished" entity status after 32 ticks.
      player._client.emit('use_item', { hand: 0, sequence: 1, rotation: { x: 0, y: 0 } });
      await waitUntil(() => player.food === 15, 'vanilla client ate');
      // Blocks: a door, a bed slept in at night, a mature crop broken by the neighbour.
      await s.setBlock(s.overworld, base.offset(2, 0, 0), stateOf(s, 'oak_door', { half: 'lower', facing: 'east' }));
      const foot = base.offset(0, 0, 2);
      await s.setBlock(s.overworld, foot, stateOf(s, 'red_bed', { part: 'foot', facing: 'east' }));
      await s.setBlock(s.overworld, foot.offset(1, 0, 0), stateOf(s, 'red_bed', { part: 'head', facing: 'east' }));
      s.setTime(13000);
      await useBed(s, player, foot, await s.overworld.getBlock(foot));
      const crop = bot.entity.position.floored().offset(1, 0, 0);
      await s.setBlock(s.overworld, crop.offset(0, -1, 0), stateOf(s, 'farmland'));
      await s.setBlock(s.overworld, crop, stateOf(s, 'wheat', { age: 7 }));
      await waitUntil(() => bot.blockAt(crop)?.name === 'wheat', 'neighbour sees wheat');
      await bot.dig(bot.blockAt(crop)!);
      // Death with drops, then respawn.
      player.takeDamage({ damage: 20 });
      await waitUntil(() => seen.has('spawn_entity'), 'item entities');
      client.write('client_command', { actionId: 0 });
      await waitUntil(() => player.health === 20, 'respawned');
      // A last line from the server: once it has arrived, so has everything sent before it.
      const marker = 'vanilla-client-test: the end';
      let markerSeen = false;
      client.on('system_chat', (packet: unknown) => {
        if (JSON.stringify(packet).includes(marker)) markerSeen = true;
      });
      player.chat(marker);
      await waitUntil(() => markerSeen, 'the vanilla client gets the last line');
      bot.quit();

      expect(errors).toEqual([]);
      for (const name of [
        'login',
        'update_health',
        'abilities',
        'game_state_change',
        'block_change',
        'entity_metadata',
        'entity_status',
        'respawn',
      ]) {
        expect(seen, `saw ${name}`).toContain(name);
      }
    } finally {
      client.end();
      await server.close();
    }
  });

  test('inventory clicks in the shapes a client of the version sends (1.21.5+: hashed stacks, absent for empty)', async () => {
    const server = await startTestServer();
    const client = mc.createClient({ host: server.host, port: server.port, username: 'Clicker', version: server.version, auth: 'offline' });
    const errors: unknown[] = [];
    // Errors in the server's handling of this client's packets (our handlers report them as `error`).
    const serverErrors: unknown[] = [];
    server.serv.on('error', (err: unknown) => serverErrors.push(err));
    try {
      client.on('error', (err: unknown) => errors.push(err));
      client.on('position', (p: { teleportId: number }) => client.write('teleport_confirm', { teleportId: p.teleportId }));
      let stateId = 0;
      client.on('window_items', (p: { stateId: number }) => (stateId = p.stateId));
      client.on('set_slot', (p: { stateId: number }) => (stateId = p.stateId));
      await waitUntil(() => server.serv.players.some((p: { username: string }) => p.username === 'Clicker'), 'the client joins');
      const player = serverPlayer(server, 'Clicker');
      await waitUntil(() => stateId > 0, 'the inventory arrives');
      giveItems(player, 'dirt', 3);
      await waitUntil(() => player.inventory.slots[36]?.count === 3, 'three dirt in the first hotbar slot');
      const dirt = server.serv.registry.itemsByName.dirt!.id;
      const hashed = server.serv.registry.version['>=']('1.21.5');
      // What a vanilla client of the version predicts: the stack on the cursor, then in slot 37.
      const stack = hashed
        ? { itemId: dirt, itemCount: 3, components: [], removeComponents: [] }
        : { itemCount: 3, itemId: dirt, addedComponentCount: 0, removedComponentCount: 0, components: [], removeComponents: [] };
      const empty = hashed ? undefined : { itemCount: 0 };
      const click = (slot: number, changed: unknown, cursor: unknown) =>
        client.write('window_click', {
          windowId: 0,
          stateId,
          slot,
          mouseButton: 0,
          mode: 0,
          changedSlots: [{ location: slot, item: changed }],
          cursorItem: cursor,
        });
      click(36, empty, stack);
      await waitUntil(
        () => player.inventory.slots[36] === null || player.inventory.slots[36] === undefined,
        'the server picked the stack up',
      );
      click(37, stack, empty);
      await waitUntil(() => player.inventory.slots[37]?.count === 3, 'the server put it down in slot 37');
      // The connection is alive: a last line arrives.
      const marker = 'vanilla-client-test: clicks done';
      const arrived = new Promise<void>((resolve) =>
        client.on('system_chat', (packet: unknown) => {
          if (JSON.stringify(packet).includes(marker)) resolve();
        }),
      );
      player.chat(marker);
      await arrived;
      expect(player.inventory.slots[37]?.type).toBe(dirt);
      expect(errors).toEqual([]);
      expect(serverErrors).toEqual([]);
    } finally {
      client.end();
      await server.close();
    }
  });
});
