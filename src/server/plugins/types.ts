/**
 * Loose shapes of flying-squid's untyped objects, as used by our plugins. Only the members we
 * touch are listed; everything else stays reachable through the index signature.
 */
import type { Vec3 } from 'vec3';

/** A flying-squid entity (players included): `serv.entities[id]`. */
export interface SquidEntity {
  id: number;
  /** 'player' | 'mob' | 'object'. */
  type: string;
  /** minecraft-data entity id sent in spawn packets. */
  entityType: number | null;
  /** Entity name for mobs and objects, e.g. 'cow'. */
  name?: string;
  username?: string;
  position: Vec3;
  /** Yaw/pitch as protocol bytes (1/256 of a turn), as flying-squid stores them. */
  yaw: number;
  pitch: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  world: any;
  teleport(position: Vec3): Promise<void> | void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [key: string]: any;
}

/** A flying-squid player: a {@link SquidEntity} with a client connection. */
export interface SquidPlayer extends SquidEntity {
  username: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  _client: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inventory: any;
}

/** Context flying-squid passes to a command's `action`: the calling player, absent for the console. */
export interface CommandContext {
  player?: SquidPlayer;
}
