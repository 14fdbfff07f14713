/** Knowledge commands: game facts the agent looks up offline (minecraft-data), not in the world. */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { searchWiki } from '../skills/wiki.ts';

const searchWikiCommand = defineCommand({
  name: '!searchWiki',
  kind: 'query',
  description: 'Facts on an item, block or mob.',
  params: {
    query: { type: 'string', description: 'name to look up', example: 'iron_ore' },
  },
  async perform({ data }, { query }) {
    return searchWiki(data, query);
  },
});

/** `!searchWiki` (`not_found` when nothing is called that). */
export const knowledgeCommands: CommandDef<CommandContext>[] = [searchWikiCommand];
