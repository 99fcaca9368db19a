// A binary min-heap of (time, value) pairs; equal times come out in the order they went in.
export class TimeHeap {
  private times: number[] = [];
  private seqs: number[] = [];
  private values: number[] = [];
  private seq = 0;

  get size(): number {
    return this.times.length;
  }

  peekTime(): number {
    return this.times.length > 0 ? (this.times[0] as number) : Number.POSITIVE_INFINITY;
  }

  push(time: number, value: number): void {
    this.times.push(time);
    this.seqs.push(this.seq++);
    this.values.push(value);
    let i = this.times.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): [number, number] {
    const top: [number, number] = [this.times[0] as number, this.values[0] as number];
    const last = this.times.length - 1;
    this.swap(0, last);
    this.times.pop();
    this.seqs.pop();
    this.values.pop();
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.times.length && this.less(left, smallest)) smallest = left;
      if (right < this.times.length && this.less(right, smallest)) smallest = right;
      if (smallest === i) break;
      this.swap(i, smallest);
      i = smallest;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a] as number;
    const tb = this.times[b] as number;
    return ta < tb || (ta === tb && (this.seqs[a] as number) < (this.seqs[b] as number));
  }

  private swap(a: number, b: number): void {
    for (const list of [this.times, this.seqs, this.values]) {
      const t = list[a] as number;
      list[a] = list[b] as number;
      list[b] = t;
    }
  }
}
