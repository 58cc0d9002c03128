// VoltAgent 2.x (`@voltagent/core`, used by test/agents only) takes an ai@6 model and peers on
// ai@6, but test/agents has ai@7 for the other agent frameworks, and a peer is always taken from
// the package that installs it. So VoltAgent gets ai@6 (and its provider-utils) as dependencies of
// its own: the release `@infergate/ai-sdk/v6` is tested with.
const VOLTAGENT_AI = { ai: '6.0.326', '@ai-sdk/provider-utils': '4.0.65' };

module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name !== '@voltagent/core') return pkg;
      for (const [name, version] of Object.entries(VOLTAGENT_AI)) {
        if (pkg.peerDependencies) delete pkg.peerDependencies[name];
        pkg.dependencies = { ...pkg.dependencies, [name]: version };
      }
      return pkg;
    },
  },
};
