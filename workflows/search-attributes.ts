import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Keyword search attributes support staff filter on in the Web UI (registered by scripts/infra).
export const InvoiceStatusKey = defineSearchAttributeKey('InvoiceStatus', SearchAttributeType.KEYWORD);
export const InvoiceNumberKey = defineSearchAttributeKey('InvoiceNumber', SearchAttributeType.KEYWORD);
export const SellerTrnKey = defineSearchAttributeKey('SellerTrn', SearchAttributeType.KEYWORD);
export const ModeKey = defineSearchAttributeKey('Mode', SearchAttributeType.KEYWORD);
export const PartnerIdKey = defineSearchAttributeKey('PartnerId', SearchAttributeType.KEYWORD);
