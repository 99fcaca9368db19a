// Chromium CPU profiles of a page (the DevTools protocol's sampling profiler, as the Performance panel
// records them): start/stop around what a benchmark measures, and the functions that took the most time.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const PHASES = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration'];

/**
 * Starts the sampling profiler; `stop` answers the profile and the renderer's main-thread time by
 * phase meanwhile (the Performance domain's counters: tasks, script, style, layout).
 */
export async function startProfile(
  page: Page,
): Promise<{ stop(): Promise<{ profile: Profile; phases: string }> }> {
  const cdp = await page.context().newCDPSession(page);
  const metrics = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return new Map(metrics.map((m) => [m.name, m.value]));
  };
  await cdp.send('Performance.enable');
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const before = await metrics();
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      const after = await metrics();
      await cdp.detach();
      const phases = PHASES.map(
        (name) =>
          `${name.replace('Duration', '')} ${Math.round(((after.get(name) ?? 0) - (before.get(name) ?? 0)) * 1000)} ms`,
      ).join(', ');
      return { profile: profile as unknown as Profile, phases };
    },
  };
}

/** The functions with the most self time in a saved profile: "name (file) ms, ...". */
export function profileTop(file: string, count = 10): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const where = frame.url ? ` (${frame.url.replace(/^.*\//, '')}:${frame.lineNumber + 1})` : '';
    const key = `${frame.functionName || '(anonymous)'}${where}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${key} ${ms.toFixed(0)} ms`)
    .join(', ');
}
