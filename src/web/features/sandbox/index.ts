/**
 * The sandbox feature's public entry: what runs as a local sandbox on this server, and the panel that
 * drives a sandboxed payment or exchange from its page (decision 0231).
 */
export { useSandboxInfo, sandboxInfoQueryOptions } from './api/get-sandbox-info';
export { SandboxPanel } from './components/sandbox-panel';
