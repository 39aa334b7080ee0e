/** Time as a dependency, so tests can move it. Instants are epoch milliseconds. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
