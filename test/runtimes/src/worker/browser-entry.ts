// The app's handler as a browser module: the page calls it directly (no server between the page
// and the gateway), and a bare core client for the CORS checks.
export { createGatewayClient } from '@infergate/core';
export { handle } from './handler';
