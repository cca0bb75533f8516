export * from './capture-session-id.js';
