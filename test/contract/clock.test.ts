import { NodeClock } from '../../src/node/node-clock.js';
import { FakeClock } from '../../src/testing/fs/fake-clock.js';
import { VirtualClock } from '../../src/testing/herdr/virtual-clock.js';
import { clockContract } from './clock.contract.js';

clockContract('NodeClock', () => new NodeClock());
clockContract('FakeClock (autoAdvance)', () => new FakeClock({ autoAdvance: true }), { instantSleeps: true });
clockContract('VirtualClock', () => new VirtualClock());
