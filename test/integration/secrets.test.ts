// Runs last (describeLast, see runsLast.ts): after every other suite has used the key, nothing at rest may contain it.
import * as assert from 'assert';
import { activateExtension, placesHoldingSecrets } from './helpers';
import { describeLast } from './runsLast';

describeLast('secrets at rest', () => {
  it('no stored file, memento, setting or log line contains the API key or the gateway key', async () => {
    const api = await activateExtension();
    const key = await api.keys.getApiKey();
    assert.ok(key && key.length > 10, 'a key is set by the earlier suites');
    const gatewayKey = 'gw_secret_for_the_scan_0123456789';
    await api.keys.setGatewayKey(gatewayKey);
    try {
      assert.deepStrictEqual(await placesHoldingSecrets(api, [key, gatewayKey]), [], 'a key is stored in plain text');
    } finally {
      await api.keys.setGatewayKey(undefined);
    }
  });
});
