export type { RealtimePublisher, InProcessPublisher, SocketIdentity, RealtimeEvent, RealtimeArgs, BusMessage } from './types.ts';
export { createInProcessPublisher, createRedisPublisher, createServerPublisher, BUS_EVENT } from './publishers.ts';
export { attachRealtimeServer, UNAUTHORIZED, type AttachedRealtimeServer, type RealtimeServer, type RealtimeServerOptions } from './server.ts';
export { originGuard, normalizeOrigin } from './origins.ts';
export { roomsFor, sessionRoom } from './rooms.ts';
