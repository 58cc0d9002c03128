import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The emulator (used when INFERGATE_BASE_URL is unset) runs a node:http server: load it from
  // node_modules at run time instead of bundling it.
  serverExternalPackages: ['@infergate/emulator'],
};

export default nextConfig;
