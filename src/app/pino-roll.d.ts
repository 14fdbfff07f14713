/** The part of pino-roll (https://github.com/mcollina/pino-roll) the logging uses; the package ships no types. */
declare module 'pino-roll' {
  import type { SonicBoom } from 'sonic-boom';

  interface PinoRollOptions {
    /** Base path; a rotation number (and the extension) is appended: `log` → `log.1.jsonl`. */
    file: string;
    /** Rotate past this size (`10m`, `500k`; a bare number is MB). */
    size?: string | number;
    extension?: string;
    /** Creates `current.log` beside the files, linking to the live one. */
    symlink?: boolean;
    /** `count`: rotated files kept besides the live one. */
    limit?: { count?: number; removeOtherLogFiles?: boolean };
    mkdir?: boolean;
    sync?: boolean;
  }

  /** Opens the live file (numbering goes on from the highest number found) and rotates it by size. */
  export default function pinoRoll(options: PinoRollOptions): Promise<SonicBoom>;
}
