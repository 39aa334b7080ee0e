/**
 * Wire-format fakes of the four enrichment providers, for adapter tests, the enrichment flow
 * tests and the benchmark. Each `startFake…()` starts a real HTTP server on 127.0.0.1 and
 * returns `{url, apiKey, requests, requestCount, setBehaviour, setDefaultBehaviour, reset, close}`.
 */
export { type FakeProviders, startFakeProviders } from "./all-providers.js";
export { FAKE_ENRICHLAYER_KEY, startFakeEnrichLayer } from "./fake-enrichlayer.js";
export {
  FAKE_FULLCONTACT_KEY,
  fullContactQueued,
  startFakeFullContact,
} from "./fake-fullcontact.js";
export { FAKE_GRAVATAR_KEY, sha256Email, startFakeGravatar } from "./fake-gravatar.js";
export { FAKE_PDL_KEY, startFakePdl } from "./fake-pdl.js";
export type {
  Behaviour,
  Delay,
  FakeProvider,
  FakeProviderOptions,
  LoggedRequest,
} from "./fake-server.js";
export { type FakePerson, fakePerson, fullName, providerQuery } from "./person.js";
