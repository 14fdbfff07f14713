/**
 * The contract between flying-squid and our plugins: typed shapes of flying-squid's untyped
 * server, player, entity, world and client objects, listing only the members our plugins use.
 *
 * flying-squid 1.12 is CommonJS without typings; these interfaces are what we rely on. A member
 * added here is a promise that flying-squid has it (or that one of our plugins installs it, as
 * noted). Packet payloads stay with the code that reads them: `client.on(name, (packet: Shape) => …)`
 * states its own shape.
 *
 * Events our plugins emit on the server are in {@link ServerEvents}.
 */
import type { IndexedData } from 'minecraft-data';
import type { Block } from 'prismarine-block';
import type { Item } from 'prismarine-item';
import type { Vec3 } from 'vec3';

/** minecraft-data of the server's version (prismarine-registry), `serv.registry`. */
export type Registry = IndexedData;

/** A slot's content: an item stack or empty. */
export type Slot = Item | null;

/**
 * A minimal typed event emitter: `on` / `once` / `off` / `emit` over an event map whose values
 * are the listeners' argument tuples.
 */
export interface TypedEmitter<Events extends { [K in keyof Events]: unknown[] }> {
  on<K extends keyof Events>(event: K, listener: (...args: Events[K]) => void): this;
  once<K extends keyof Events>(event: K, listener: (...args: Events[K]) => void): this;
  off<K extends keyof Events>(event: K, listener: (...args: Events[K]) => void): this;
  emit<K extends keyof Events>(event: K, ...args: Events[K]): boolean;
}

/**
 * A node-minecraft-protocol server-side client (`player._client`). Packet listeners declare the
 * payload shape they read (`client.on('use_entity', (packet: { target: number }) => …)`).
 */
export interface SquidClient {
  /** Sends a packet; the payload must match the version's protocol definition. */
  write(name: string, params: object): void;
  on<T>(event: string, listener: (packet: T) => void): this;
  listeners(event: string): Array<(packet: unknown) => void>;
  removeAllListeners(event: string): this;
  /**
   * Closes the connection with a reason shown to the player; `fullReason`, when given, is the text
   * component sent instead (in play: an NBT tag on 1.20.3+, a JSON string before; see
   * `encodeComponent` in ./services/text.ts).
   */
  end(reason: string, fullReason?: unknown): void;
  /** Round-trip time in ms, as measured by keep-alives. */
  latency?: number;
  /** The name the client logged in with (set at login). */
  username?: string;
}

/** A prismarine-world world (`serv.overworld`, `player.world`), as far as we read and write it. */
export interface SquidWorld {
  getBlock(position: Vec3): Promise<Block>;
  getBlockStateId(position: Vec3): Promise<number>;
  /** Writes a state without telling anyone (see `SquidServer.setBlock` for the announced write). */
  setBlockStateId(position: Vec3, stateId: number): Promise<void>;
  getColumn(chunkX: number, chunkZ: number): Promise<unknown>;
  getColumns(): Array<{ chunkX: string; chunkZ: string }>;
  /** Synchronous access to loaded chunks (undefined/null where nothing is loaded). */
  sync: {
    getBlock(position: Vec3): Block | null;
    getBlockStateId(position: Vec3): number;
    getColumnAt(position: Vec3): unknown;
    /** Light levels 0–15 (prismarine-world). */
    getSkyLight(position: Vec3): number;
    getBlockLight(position: Vec3): number;
  };
  /** Present when the world is persisted to a folder. */
  storageProvider?: unknown;
  savingInt?: NodeJS.Timeout;
  currentlySaving?: boolean;
  queueSaving(chunkX: number, chunkZ: number): void;
  saveNow(): Promise<void>;
}

/** Player-visible player entity events. */
export interface PlayerEvents {
  spawned: [];
  disconnected: [];
  /** flying-squid's pvp: a player attacked an entity (our mobs set `attacker`). */
  attack: [data: { attackedEntity?: SquidEntity; attacker?: SquidPlayer }];
}

/**
 * A flying-squid entity (players included): `serv.entities[id]`. Mobs spawned by our mob service
 * and item entities are plain entities with the extra members noted.
 */
export interface SquidEntity {
  id: number;
  type: 'player' | 'mob' | 'object';
  /** minecraft-data entity id sent in spawn packets (null for flying-squid's players until fixed). */
  entityType: number | null;
  /** Entity name for mobs and objects, e.g. 'cow', 'item'. */
  name?: string;
  uuid?: string;
  position: Vec3;
  /** Where the clients believe the entity is (flying-squid's sum of the deltas sent, floored to 1/4096). */
  knownPosition?: Vec3;
  /** Whether the entity stood on a block at its last position update. */
  onGround?: boolean;
  /** Blocks per second (flying-squid's physics unit). */
  velocity: Vec3;
  /** Yaw/pitch as protocol bytes (1/256 of a turn), as flying-squid stores them. */
  yaw: number;
  pitch: number;
  headPitch?: number;
  world: SquidWorld;
  /** Living entities only (players and mobs); objects have none. */
  health?: number;
  metadata?: unknown[];
  /** When flying-squid created the entity (`Date.now()`). */
  bornTime: number;
  /** Item entities: ms after `bornTime` before anyone can pick them up. */
  pickupTime?: number;
  /** Item entities: the stack they carry. */
  itemId?: number;
  itemCount?: number;
  /** Item entities: set once picked up (by our pickup). */
  collected?: boolean;
  /** Entities spawned on this entity's viewers (a player's: on its own client). */
  nearbyEntities?: SquidEntity[];
  getNearbyPlayers(): SquidPlayer[];
  _writeOthersNearby(name: string, params: object): void;
  sendPosition(position: Vec3, onGround: boolean, teleport?: boolean): Promise<boolean | void>;
  /**
   * flying-squid's physics step for objects and mobs: applies gravity and friction over `delta`
   * seconds and returns where the entity ends (not moving it: the entity tick sends it there).
   */
  calculatePhysics(delta: number): Promise<{ position: Vec3; onGround: boolean }>;
  teleport(position: Vec3): Promise<void> | void;
  updateAndSpawn(): void;
  destroy(): void;
  /** Living entities: flying-squid's damage entry point (our mobs replace it). */
  takeDamage?(data: { damage?: number; attacker?: SquidPlayer }): void;
  updateHealth?(health: number): void;
}

/** The flying-squid player inventory (`player.inventory`): prismarine-windows' window 0. */
export interface SquidInventory {
  /** Window slots (0 craft result, 1–4 grid, 5–8 armour, 9–35 main, 36–44 hotbar, 45 offhand). */
  slots: Slot[];
  /** Sets a slot and emits `updateSlot` (our inventory service syncs the client from it). */
  updateSlot(slot: number, item: Slot): void;
  on(event: 'updateSlot', listener: (slot: number, oldItem: Slot, newItem: Slot) => void): this;
  removeAllListeners(event: string): this;
}

/** A flying-squid player: a {@link SquidEntity} with a client connection. */
export interface SquidPlayer extends SquidEntity, TypedEmitter<PlayerEvents> {
  type: 'player';
  username: string;
  uuid: string;
  _client: SquidClient;
  inventory: SquidInventory;
  health: number;
  food: number;
  foodSaturation: number;
  /** 0 survival, 1 creative, 2 adventure, 3 spectator. */
  gameMode: number;
  prevGameMode?: number;
  /** Selected hotbar slot, 0–8. */
  heldItemSlot: number;
  crouching?: boolean;
  disconnected?: boolean;
  op?: boolean;
  spawnPoint?: Vec3;
  profileProperties?: unknown[];
  /** True while flying-squid streams chunks to the player. */
  sendingChunks?: boolean;
  updateHealth(health: number): void;
  /** Sends the player their own position (and look), optionally moving them first. */
  sendSelfPosition(position?: Vec3): void;
  waitPlayerLogin(): Promise<void>;
  /** flying-squid's login sequence (player list, spawn, chunks, inventory), run once per join. */
  login(): Promise<void>;
  worldSendRestOfChunks(): Promise<void>;
  sendChunk(chunkX: number, chunkZ: number, column: unknown): Promise<void>;
  sendBlock(position: Vec3, stateId: number): void;
  spawnEntity(entity: SquidEntity): void;
  /** Picks an item entity up (replaced by our inventory service). */
  collect(entity: SquidEntity): number | void;
  setEquipment?(slot: number, item: Slot): void;
  /** Sends a system line to the player (plain text). */
  system?(text: string): void;
  /** Runs `action` through flying-squid's cancellable behaviour events. */
  behavior(name: string, data: object, action: () => Promise<void>): Promise<void>;
  _sendRespawn(difficulty?: number, gameMode?: number, dimension?: number): void;
  /** Sends the abilities packet for the game mode (installed by our player-state feature). */
  sendAbilities?(): void;
}

/**
 * Context flying-squid passes to a command's `action`: the calling player, absent for the console.
 * `/execute` (our dispatcher, ./services/commands.ts) adds where and as whom the command runs.
 */
export interface CommandContext {
  /** The player running the command (also who gets its feedback unless `output` says otherwise). */
  player?: SquidPlayer;
  /** Who gets the feedback when not `player` (`/execute as` keeps the caller's); null = the console. */
  output?: SquidPlayer | null;
  /** The executing entity when it is not a player (`execute as @e[type=cow]`); `@s` matches it. */
  entity?: SquidEntity;
  /** Where the command runs (`~` is relative to it); default the player's position, else 0 0 0. */
  position?: Vec3;
  /** The world the command runs in; default the player's, else the overworld. */
  world?: SquidWorld;
  /** Rotation the command runs with, degrees (`execute rotated`, `facing`); default the executor's. */
  rotation?: { yaw: number; pitch: number };
}

/** A command registered with `serv.commands.add`. */
export interface CommandDefinition {
  base: string;
  aliases?: string[];
  info: string;
  usage: string;
  /** Op only (every player is op on the embedded server). */
  op?: boolean;
  /** flying-squid's argument parser; `false` means a usage error. */
  parse?: unknown;
  /** Runs with the argument text after the command name (possibly empty). */
  action(raw: string, ctx: CommandContext): unknown;
}

/** What `serv.placeItem` and `serv.onItemPlace` handlers receive for one placement. */
export interface ItemPlaceData {
  item: Item;
  /** Angle from the player to the placed block, degrees in [0, 360). */
  angle: number;
  /** Clicked face (protocol number). */
  direction: number;
  player: SquidPlayer;
  referencePosition: Vec3;
  placedPosition: Vec3;
  directionVector: Vec3;
  /** Generic placement properties flying-squid derives (facing, axis, half, rotation, waterlogged). */
  properties: Record<string, unknown>;
}

/** A placement's block: minecraft-data block id and state offset from its `minStateId`; empty = nothing placed. */
export interface PlacedBlock {
  id?: number;
  data?: number;
}

/** What `serv.onBlockInteraction` handlers receive: the used block (with its position) and the player. */
export interface BlockInteraction {
  block: Block & { position: Vec3; direction?: number };
  player: SquidPlayer;
}

/**
 * Payload of the server's `'blockBroken'` event, emitted once a player broke a block (survival
 * or creative; not for the blocks popped off with it), after the block was set to air and its
 * drops spawned.
 */
export interface BlockBrokenEvent {
  player: SquidPlayer;
  /** Where the block was (blocks). */
  position: Vec3;
  /** The block as it was before breaking. */
  block: Block;
  /** The block's own loot that was dropped (empty in creative or without the right tool). */
  drops: Array<{ item: string; count: number }>;
}

/**
 * Payload of the server's `'blockPowered'` event (the switches feature): a lever, button or
 * pressure plate changed the redstone signal it gives, after the new state was set. A lever
 * flipped, a button pressed or released, a plate pressed, released or (weighted plates) weighed
 * differently. A task's judge reads conditions such as "the lever at P is on" from it (or from the
 * block state: `signalAt` in ./services/redstone.ts).
 */
export interface BlockPoweredEvent {
  world: SquidWorld;
  /** The switch's cell (blocks). */
  position: Vec3;
  /** Its block name, e.g. 'stone_button', 'light_weighted_pressure_plate'. */
  name: string;
  /** Whether it gives a signal now (power > 0). */
  powered: boolean;
  /** Its signal now, 0–15 (levers, buttons and on/off plates: 0 or 15). */
  power: number;
  /**
   * The game tick (`serv.tickCount`) the change belongs to: the tick of the click or of the step
   * onto a plate, or the scheduled tick of a release (a button pressed at tick t releases at
   * t + 20 or t + 30, even when a loaded server runs it a little late).
   */
  tick: number;
  /**
   * Who changed it: the player who flipped a lever or pressed a button, an entity that pressed a
   * plate; absent for a release (a button's time ran out, a plate's last entity left).
   */
  by?: SquidEntity;
}

/**
 * Events on the server object: flying-squid's (`newPlayer`, `newEntity`, `tick`, `close`,
 * `error`) and ours.
 *
 * @example serv.on('blockBroken', ({ player, position, block }) => { … })
 */
export interface ServerEvents {
  newPlayer: [player: SquidPlayer];
  newEntity: [entity: SquidEntity];
  /** One game tick (20 per second): seconds since the last one, and the tick count. */
  tick: [delta: number, tickCount: number];
  close: [];
  error: [error: unknown];
  /** A player broke a block (the digging feature). */
  blockBroken: [event: BlockBrokenEvent];
  /**
   * A survival player started digging a block (the digging feature; vanilla `BlockState.attack`,
   * called on `START_DESTROY_BLOCK` outside creative): a note block plays its note.
   */
  blockAttacked: [event: { player: SquidPlayer; position: Vec3; block: Block }];
  /** A player placed a block through the placement registry (the placing feature), after it was set. */
  blockPlaced: [event: { player: SquidPlayer; position: Vec3; name: string }];
  /** A lever, button or pressure plate changed its signal (the switches feature). */
  blockPowered: [event: BlockPoweredEvent];
  /** A dead player respawned (the player-fixes feature, after the respawn packet, teleport and full health). */
  playerRespawned: [player: SquidPlayer];
  /** A player's health reached 0 (the player-state feature, after the death drops). */
  playerDied: [player: SquidPlayer];
  /** A mob was hit (the mob service; the mob-combat feature applies it). */
  mobHurt: [event: { entity: SquidEntity; damage: number; attacker?: SquidPlayer }];
  /** A mob died (the mob service; the mob-loot feature drops its loot). */
  mobDied: [event: { entity: SquidEntity; killer?: SquidPlayer }];
}

/**
 * The minecraft-protocol server under flying-squid (`serv._server`): the listening socket, the
 * login and the clients in every state (handshake, login, configuration, play).
 */
export interface ProtocolServer {
  /** The `max-players` setting (what the server list shows). */
  maxPlayers: number;
  /** Clients past login (configuration or play), counted by minecraft-protocol. */
  playerCount: number;
  /** The options the server was created with (flying-squid's settings object, shared with it). */
  options: Record<string, unknown>;
  /** Serialises one packet once and writes it to every client given (play state). */
  writeToClients(clients: SquidClient[], name: string, params: object): void;
  on(event: 'connection', listener: (client: ProtocolClient) => void): this;
}

/** A minecraft-protocol client as the server sees it from its first byte, before it is a player. */
export interface ProtocolClient extends SquidClient {
  /** `handshaking`, `status`, `login`, `configuration` or `play`. */
  state: string;
  username?: string;
  /** Ends the connection; in the login state `fullReason` is the JSON text component shown. */
  end(reason: string, fullReason?: string): void;
  once<T>(event: string, listener: (packet: T) => void): this;
  rawListeners(event: string): Array<(packet: unknown) => void>;
}

/**
 * A started flying-squid server (`serv`), with the members our plugins use.
 * Members marked "ours" are set by `startEmbeddedServer` or one of our services.
 */
export interface SquidServer extends TypedEmitter<ServerEvents> {
  registry: Registry;
  /** The protocol server under flying-squid. */
  _server: ProtocolServer;
  /** Connected players (joining ones included once `newPlayer` fired). */
  players: SquidPlayer[];
  /** Every entity by id, players included. */
  entities: Record<number, SquidEntity>;
  overworld: SquidWorld;
  netherworld: SquidWorld;
  /** Game time in ticks (day cycle), `setTime` to change it. */
  time: number | bigint;
  tickCount: number;
  /** 0 peaceful … 3 hard. */
  difficulty: number;
  hashedSeed?: unknown;
  dimensionNames?: Record<number, string>;
  listeningPort?: number;
  /** Ours: the folder the world persists in (undefined = in memory). */
  worldFolder?: string;
  /** Ours: the world seed (the one asked for, the world folder's level.dat's, or a random one). */
  seed?: number;
  /** flying-squid's command tree (lib/command.js). */
  commands: {
    add(command: CommandDefinition): void;
    /** The command whose name (or alias) is the first word of `text`, and the rest of the text. */
    find(text: string): [{ params: CommandDefinition }, string] | undefined;
    /** Runs a command; resolves to a reply line (legacy text) or nothing; throws flying-squid `UserError`s. */
    use(text: string, ctx?: CommandContext, op?: boolean): Promise<string | undefined>;
    /** Every command by its base name. */
    uniqueHash: Record<string, { params: CommandDefinition }>;
  };
  /** Whether the server's version has a protocol feature (minecraft-data `features`). */
  supportFeature(feature: string): boolean;
  /** Writes a block state and shows it to the players in that world. */
  setBlock(world: SquidWorld, position: Vec3, stateId: number): Promise<void>;
  setTime(time: number): void;
  handleCommand(command: string): Promise<void>;
  getPlayer(username: string): SquidPlayer | null;
  /** flying-squid's placement registry: the state a placed item gets. */
  placeItem(data: ItemPlaceData): PlacedBlock | Promise<PlacedBlock>;
  onItemPlace(name: string, handler: (data: ItemPlaceData) => PlacedBlock | Promise<PlacedBlock>, warn?: boolean): void;
  /** flying-squid's block-use registry: true when a handler used the click. */
  interactWithBlock(data: BlockInteraction): Promise<boolean>;
  onBlockInteraction(name: string, handler: (data: BlockInteraction) => boolean | Promise<boolean>): void;
  initEntity(type: 'player' | 'mob' | 'object', entityType: number | null, world: SquidWorld, position: Vec3): SquidEntity;
  spawnObject(type: number, world: SquidWorld, position: Vec3, options: Record<string, unknown>): SquidEntity;
  _writeArray(name: string, params: object, players: SquidPlayer[]): void;
  /** Plays a sound to the players near `position` (flying-squid's, fixed by the sounds-particles feature). */
  playSound?(
    sound: string,
    world: SquidWorld,
    position: Vec3 | null,
    options?: { volume?: number; pitch?: number; soundCategory?: number | string; radius?: number },
  ): void;
  _worldLoadPlayerChunk(chunkX: number, chunkZ: number, player: SquidPlayer): boolean;
  _sendPlayerList?(player: SquidPlayer): void;
  /** The entities (players too) within `radius` blocks (default 128) of `position` in `world` (flying-squid's; players only once listed, see features/players.ts). */
  getNearbyEntities(options: { world: SquidWorld; position: Vec3; radius?: number }): SquidEntity[];
  _sendPlayerEventLeave?(player: SquidPlayer): void;
  _createChatComponent(text: string): { toNetworkFormat(): unknown };
  waitForReady(timeoutMs: number): Promise<void>;
  /** flying-squid's tick clock: stops the ticks (ours: features/tick-loop.ts). */
  stopTickInterval?(): void;
  /** flying-squid's tick clock: (re)starts the ticks at `ticksPerSecond` (ours: features/tick-loop.ts). */
  setTickInterval?(ticksPerSecond: number): void;
  /** Wall time of the last tick (ms since the epoch, flying-squid's). */
  lastTickTime?: number;
  destroy(): Promise<void>;
  setMaxListeners(n: number): this;
  /** Log sinks (ours: routed by `startEmbeddedServer`). */
  log(message: unknown): void;
  info(message: unknown): void;
  warn(message: unknown): void;
  err(message: unknown): void;
  debug?(message: string): void;
}
