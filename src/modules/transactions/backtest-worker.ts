import { serveWorkerTasks } from '../../platform/worker-pool.js';
import type { RuleSet as EngineRuleSet } from '../../engines/rules/index.js';
import { BacktestReplay, type BacktestResult, type ReplayParams, type ReplayRow } from './backtest-replay.js';

/**
 * Worker entry of one backtest (runBacktest starts one per backtest and ends it after): `start` compiles the
 * rule set and answers the warm-up window, each `page` replays rows in order, `finish` answers the result.
 */
export type BacktestTask =
  { kind: 'start'; ruleset: EngineRuleSet; params: ReplayParams } | { kind: 'page'; rows: ReplayRow[] } | { kind: 'finish' };

export type BacktestTaskResult = { warmMs: number } | { done: number } | BacktestResult;

let replay: BacktestReplay | null = null;

serveWorkerTasks<BacktestTask, BacktestTaskResult>(async (task) => {
  if (task.kind === 'start') {
    replay = new BacktestReplay(task.ruleset, task.params);
    return { result: { warmMs: replay.warmMs } };
  }
  if (!replay) throw new Error('backtest worker: no backtest started');
  if (task.kind === 'page') {
    replay.page(task.rows);
    return { result: { done: task.rows.length } };
  }
  return { result: replay.result() };
});
