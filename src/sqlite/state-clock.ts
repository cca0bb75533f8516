/**
 * Reads the clock (epoch ms, the ports' clock); with it what was read of a store is remembered under its `lstat`s once
 * settled (see `rememberedProbe`), without it nothing is.
 * @public
 */
export type StateClock = () => number;
