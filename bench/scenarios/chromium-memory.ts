// Memory of the Chromium processes this process started: the proportional set size (PSS, from
// /proc/<pid>/smaps_rollup) of every Chromium process below this one (browsers, their GPU, network and
// renderer processes). PSS splits shared pages between the processes sharing them, so the sum is what
// the seats really cost the machine. Linux only.
import fs from 'node:fs';

function processTable(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  return children;
}

function pssKb(pid: number): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function isChromium(pid: number): boolean {
  try {
    return /chrom/i.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '');
  } catch {
    return false;
  }
}

/** PSS (MB) of every Chromium process descending from this process, and how many there are. */
export function chromiumPss(): { mb: number; processes: number } {
  const children = processTable();
  let kb = 0;
  let processes = 0;
  const stack = [...(children.get(process.pid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    // The embedded PostgreSQL is a child too: only Chromium's trees count.
    if (isChromium(pid)) {
      kb += pssKb(pid);
      processes += 1;
      stack.push(...(children.get(pid) ?? []));
    }
  }
  return { mb: kb / 1024, processes };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
