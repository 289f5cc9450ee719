/**
 * Workload 13: what V8's young collections promote of per-request data (bench/young-garbage.ts runs
 * the loops in a process of its own, with the production flags). The limits are the figures of the
 * fixed code with room for noise, well under what each old shape had promoted (in brackets).
 */
import { startChild } from './processes.js';
import type { WorkloadRecord } from './workloads.js';

/** MB promoted at most, per loop. */
export const PROMOTION_LIMITS_MB = {
  /** ~40 MB through the loop; an object literal with getters per connection had 10.5 MB promoted. */
  connectionsMb: 2,
  /** ~30 MB; finished jobs that kept their `resolve` had 13–14 MB promoted, emptied ones 1.5–4.7 MB. */
  schedulerMb: 7,
  /** ~20 MB each; closures per exchange had 21.3–21.7 MB promoted. */
  transportSignalPerExchangeMb: 4,
  transportSharedSignalMb: 4,
};

type PromotedMb = Record<keyof typeof PROMOTION_LIMITS_MB, number>;

export async function youngGarbage(): Promise<WorkloadRecord & { promotedMb: PromotedMb }> {
  const child = await startChild('young-garbage.ts', {});
  try {
    const promotedMb = await child.request<PromotedMb>('measure');
    return {
      id: '13',
      name: 'per-request data dies young: MB promoted by pairs of young collections (connections, scheduler, transport)',
      promotedMb,
      limitsMb: PROMOTION_LIMITS_MB,
    };
  } finally {
    await child.stop();
  }
}
