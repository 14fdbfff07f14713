/** Text of graph nodes and agent states for the roles' prompts. */
import type { TaskNode } from '../graph.ts';
import { describeWork } from '../work.ts';

/**
 * One line per node: `1.2 [success] Craft 12 oak_planks (requires 1.1; candidates Alice; feedback: …)`.
 */
export function formatNodes(nodes: readonly TaskNode[]): string {
  if (!nodes.length) return '(none)';
  return nodes
    .map((n) => {
      const parts = [
        n.predecessors.length ? `requires ${n.predecessors.join(', ')}` : 'requires nothing',
        `candidates ${n.candidates.join(', ')}`,
      ];
      if (n.number > 1) parts.push(`needs ${n.number} agents`);
      if (n.assigned.length) parts.push(`assigned ${n.assigned.join(', ')}`);
      if (n.work) parts.push(`work: ${describeWork(n.work)}`);
      if (n.feedback) parts.push(`feedback: ${n.feedback}`);
      return `${n.id} [${n.status}] ${n.description} (${parts.join('; ')})`;
    })
    .join('\n');
}

/** `name: text` lines, or `(none)`. */
export function formatByName(values: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(values ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}: ${v}`).join('\n') : '(none)';
}

/** A bulleted list, or `(none)`. */
export function bullets(lines: readonly string[]): string {
  return lines.length ? lines.map((l) => `- ${l}`).join('\n') : '(none)';
}
