// The secrets suite (case 7, last part): after the whole fault suite and every other suite (describeLast), the keys are nowhere at rest.
import * as assert from 'assert';
import { activateExtension, placesHoldingSecrets } from '../helpers';
import { describeLast } from '../runsLast';
import { GATEWAY_KEY } from './common';
import { kase } from './table';

describeLast('faults: 7 secrets at rest (after the suite)', () => {
  kase('7 no file under the extension storage, no setting, no memento, no log line holds the key or the gateway key', async () => {
    const api = await activateExtension();
    const key = await api.keys.getApiKey();
    assert.ok(key && key.length > 10, 'the suite used a key');
    await api.keys.setGatewayKey(GATEWAY_KEY);
    try {
      assert.deepStrictEqual(await placesHoldingSecrets(api, [key, GATEWAY_KEY]), [], 'a key is stored in plain text');
    } finally {
      await api.keys.setGatewayKey(undefined);
    }
  });
});
