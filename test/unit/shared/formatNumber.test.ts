import { describe, expect, it } from 'vitest';
import { withThousands } from '../../../src/shared/formatNumber';

describe('withThousands', () => {
  it('groups whole numbers by threes, as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 100_000, 1_234_567, -1234, 12_345.5]) expect(withThousands(n)).toBe(n.toLocaleString('en-US', { maximumFractionDigits: 20 }));
  });
});
