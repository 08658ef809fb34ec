// Placeholder replaced by the provisioning root hooks.
export const mochaHooks = {};
