import { strict as assert } from 'node:assert';
import { CREDENTIAL_ENV_NAMES, childEnvironment } from '../../../../src/core/process/env';

describe('childEnvironment', () => {
  it('strips the credentials and the extra names, passes the rest', () => {
    const base = { PATH: '/bin', OPENAI_API_KEY: 'x', MAGI_API_KEY: 'y', ANTHROPIC_API_KEY: 'z', EXA_API_KEY: 'w', MY_SECRET: 's', HOME: '/h' };
    assert.deepEqual(childEnvironment(base, ['MY_SECRET'], 'linux'), { PATH: '/bin', HOME: '/h' });
    assert.deepEqual([...CREDENTIAL_ENV_NAMES], ['MAGI_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'EXA_API_KEY', 'MAGI_VISION_API_KEY']);
  });

  it('matches names case-insensitively on Windows only', () => {
    assert.deepEqual(childEnvironment({ openai_api_key: 'x', Path: 'p' }, [], 'win32'), { Path: 'p' });
    assert.deepEqual(childEnvironment({ openai_api_key: 'x' }, [], 'linux'), { openai_api_key: 'x' });
  });
});
