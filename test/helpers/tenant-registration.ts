// The Tenant registration the pure Tenant mapping tests use (what `einvoice admin tenant:create` stores).
import type { TenantRegistration } from '../../src/domain/tenant-invoice-types';

export const FALCON_TENANT: TenantRegistration = {
  trn: '100123456700003',
  legalName: 'Falcon Trading LLC',
  legalNameArabic: 'فالكون للتجارة ذ.م.م',
  address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'DXB' },
  tradeLicenseNumber: 'DED-778812',
};
