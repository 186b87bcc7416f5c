// The policy: one decision per live tool call, protected paths, per-session
// permission modes and per-turn limits.
export { decide, factsFor, type DecisionFacts, type Verdict } from './decide';
export { protectedRuleFor, PROTECTED_RULES, type TargetType } from './protectedPaths';
export {
  SessionModes,
  MODE_WARNINGS,
  NO_SESSION_MESSAGE,
  isLoosening,
  parseModeName,
  modeMessage,
  unchangedModeMessage,
  type ModeChange,
  type ConfirmLoosening,
} from './modes';
export { TURN_LIMITS, LIMIT_MESSAGES, type TurnLimits } from './limits';
