/** Sizes and durations the scenarios are written in. */
export const GIB = 1024 ** 3;
export const TIB = 1024 ** 4;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
