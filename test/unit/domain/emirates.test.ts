import { expect } from 'chai';
import { emirateCode, EMIRATE_CODES } from '@einvoice/pint-ae';

describe('emirateCode', () => {
  it('accepts the seven PINT-AE codes in any case', () => {
    for (const c of EMIRATE_CODES) {
      expect(emirateCode(c)).to.equal(c);
      expect(emirateCode(c.toLowerCase())).to.equal(c);
    }
  });

  it('accepts common names and ISO 3166-2 codes', () => {
    const names: Record<string, string> = {
      Dubai: 'DXB',
      'Abu Dhabi': 'AUH',
      'abu dhabi': 'AUH',
      Sharjah: 'SHJ',
      Ajman: 'AJM',
      'Umm Al Quwain': 'UAQ',
      'Umm al-Qaiwain': 'UAQ',
      'Ras Al Khaimah': 'RAK',
      'Ras al-Khaimah': 'RAK',
      Fujairah: 'FUJ',
      'Al Fujairah': 'FUJ',
      'AE-DU': 'DXB',
      'ae-az': 'AUH',
    };
    for (const [name, code] of Object.entries(names)) expect(emirateCode(name), name).to.equal(code);
  });

  it('returns undefined for anything else', () => {
    for (const v of ['', 'XYZ', 'Al Ain', 'Riyadh', 'DU', undefined, null]) expect(emirateCode(v as string)).to.equal(undefined);
  });
});
