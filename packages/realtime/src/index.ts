export type { RealtimePublisher, InProcessPublisher, SocketIdentity, RealtimeEvent, RealtimeArgs, BusMessage } from './types.ts';
export { createInProcessPublisher, createServerPublisher, BUS_EVENT } from './publishers.ts';
// Through Redis (several API nodes, workers): `@portal/realtime/redis`, not loaded by the embedded portal.
export { attachRealtimeServer, UNAUTHORIZED, type AttachedRealtimeServer, type RealtimeServer, type RealtimeServerOptions } from './server.ts';
export { originGuard, normalizeOrigin } from './origins.ts';
export { roomsFor, sessionRoom } from './rooms.ts';
export { patentRoomsFor, publishPatentsChanged } from './patents.ts';
