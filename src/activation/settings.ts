/**
 * The activation settings of each recall path, read from the configuration: active recall
 * (seed 000 + seed 002: working set, quotas, repeat suppression) and intrusive recall (seed
 * 001: plain top-k on a nudge). Cooldown applies to a path only when `[memory.cooldown].paths`
 * names it.
 */
import type { EngramConfig } from '../config/schema.js';
import type { RecallPath } from '../model/receipt.js';
import type { ActivationSettings } from './activation-request.js';
import type { CooldownSettings } from './cooldown.js';

/** The cooldown for `path`, or null when it does not apply there. */
export function cooldownFor(config: EngramConfig, path: RecallPath): CooldownSettings | null {
  const { decay, seconds, paths } = config.memory.cooldown;
  return decay === 'none' || !paths.includes(path) ? null : { decay, seconds };
}

/** Active recall: once per user message, the working set first, then the hot lane. */
export function activeRecallSettings(config: EngramConfig): ActivationSettings {
  const auto = config.auto_recall;
  const workingSet = config.working_set.enabled;
  return {
    policy: auto.selection_mode,
    // seed 002: max_items is the whole budget, one slot of it the working set's
    hotLane: Math.max(0, Math.min(config.memory.recall.limit, auto.max_items - (workingSet ? 1 : 0))),
    hotLaneWithoutWorkingSet: Math.min(config.memory.recall.limit, auto.max_items),
    maxItems: auto.max_items,
    threshold: config.memory.recall.threshold,
    quotas: { mustMax: auto.quotas.must_max, niceMin: auto.quotas.nice_min, unknownMax: auto.quotas.unknown_max },
    repeatWindowTurns: auto.repeat_window_turns,
    repeatPenalty: auto.repeat_penalty,
    dedupeBackbone: auto.dedupe_backbone,
    mmrLambda: auto.mmr_lambda,
    cooldown: cooldownFor(config, 'active'),
    workingSet,
    pinHardRules: true,
  };
}

/** Intrusive recall: the best few above the threshold, no working set, cooldown and MMR applied. */
export function intrusiveRecallSettings(config: EngramConfig): ActivationSettings {
  const { intrusive } = config.memory;
  const auto = config.auto_recall;
  return {
    policy: 'top_k',
    hotLane: intrusive.max_items,
    hotLaneWithoutWorkingSet: intrusive.max_items,
    maxItems: intrusive.max_items,
    threshold: intrusive.threshold,
    quotas: { mustMax: auto.quotas.must_max, niceMin: auto.quotas.nice_min, unknownMax: auto.quotas.unknown_max },
    repeatWindowTurns: auto.repeat_window_turns,
    repeatPenalty: auto.repeat_penalty,
    dedupeBackbone: false,
    mmrLambda: auto.mmr_lambda,
    cooldown: cooldownFor(config, 'intrusive'),
    workingSet: false,
    pinHardRules: false,
  };
}
