// `npx tsx scripts/provision.ts`: build or locate the Temporal CLI and the MongoDB-compatible server,
// start them once to prove they work, then stop. CI and newcomers can warm the cache with it.
import { provisionInfra, ProvisioningError } from './infra';

async function main(): Promise<void> {
  const infra = await provisionInfra('test', { ...process.env, TEMPORAL_ADDRESS: '', MONGODB_URI: '' });
  console.log(JSON.stringify({ temporal: infra.temporal.how, mongo: infra.mongo.how }));
  await infra.stop();
}

main().catch((err) => {
  console.error(err instanceof ProvisioningError ? `provisioning failed at ${err.message}` : `provisioning failed: ${err.message}`);
  process.exit(1);
});
