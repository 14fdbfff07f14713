/** The coordination layer's LLM roles: the typed call (`role.ts`), its counters and every role. */
export {
  callRole,
  DEFAULT_RETRIES,
  DEFAULT_ROLE_TIMEOUT_MS,
  type RoleCall,
  type RoleFailure,
  type RoleResult,
  type RoleSpec,
} from './role.ts';
export { RoleStats, type RoleCounters, type RoleName } from './stats.ts';
export { extractJson, type Extracted } from './json.ts';
export { decomposeRole, type DecomposeInput } from './decompose.ts';
export { assignRole, askWithRole, type AssignInput } from './assign.ts';
export { reflectRole, type ReflectInput, type Reflection } from './reflect.ts';
export { agentSummaryRole, environmentSummaryRole, type AgentSummaryInput, type EnvironmentSummaryInput } from './summarise.ts';
export {
  dependencyRole,
  dependencyPairRole,
  type DependencyInput,
  type DependencyPairInput,
  type ProposedEdge,
  type Step,
} from './dependency.ts';
export { counterfactualRole, type CounterfactualInput } from './counterfactual.ts';
export { monitorRole, type MonitorInput, type MonitorVerdict } from './monitor.ts';
export { taskPlanRole, type TaskPlan, type TaskPlanInput } from './task-plan.ts';
export { actionPlanRole, type ActionPlanInput } from './action-plan.ts';
