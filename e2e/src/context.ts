/** Values the global setup hands to the test files through vitest's provide/inject. */
export interface PortalInfo {
  baseUrl: string;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    portal: PortalInfo;
  }
}
