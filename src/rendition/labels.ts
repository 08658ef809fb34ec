// The rendition's labels in English and Arabic, and the names of the PINT-AE codes it prints. English names
// follow the official genericode lists (/work/shared/pint-ae/codelists); the Arabic ones are the terms of the
// UAE VAT law's Arabic text (Federal Decree-Law No. 8 of 2017) where it has one. Pure data.

export interface Bilingual {
  en: string;
  ar: string;
}

const L = (en: string, ar: string): Bilingual => ({ en, ar });

export const LABELS = {
  seller: L('Seller', 'البائع'),
  buyer: L('Buyer', 'المشتري'),
  payee: L('Payee', 'المستفيد'),
  taxRepresentative: L('Tax representative', 'الممثل الضريبي'),
  legalName: L('Legal name', 'الاسم القانوني'),
  tradeName: L('Trade name', 'الاسم التجاري'),
  trn: L('TRN', 'رقم التسجيل الضريبي'),
  endpoint: L('Electronic address', 'العنوان الإلكتروني'),
  identifier: L('Identifier', 'المعرّف'),
  registration: L('Registration', 'التسجيل القانوني'),
  address: L('Address', 'العنوان'),
  contact: L('Contact', 'جهة الاتصال'),
  number: L('Number', 'الرقم'),
  uuid: L('Document UUID', 'المعرّف الفريد للمستند'),
  issueDate: L('Issue date', 'تاريخ الإصدار'),
  dueDate: L('Due date', 'تاريخ الاستحقاق'),
  taxPointDate: L('Date of supply', 'تاريخ التوريد'),
  period: L('Invoicing period', 'فترة الفوترة'),
  currency: L('Currency', 'العملة'),
  references: L('References', 'المراجع'),
  purchaseOrder: L('Purchase order', 'أمر الشراء'),
  salesOrder: L('Sales order', 'أمر البيع'),
  precedingInvoice: L('Preceding invoice', 'الفاتورة الأصلية'),
  buyerReference: L('Buyer reference', 'مرجع المشتري'),
  contract: L('Contract', 'العقد'),
  project: L('Project', 'المشروع'),
  despatch: L('Despatch advice', 'إشعار الشحن'),
  receipt: L('Receipt advice', 'إشعار الاستلام'),
  creditReason: L('Credit reason', 'سبب الإشعار الدائن'),
  delivery: L('Delivery', 'التسليم'),
  deliveryDate: L('Delivery date', 'تاريخ التسليم'),
  transactionType: L('Transaction type', 'نوع المعاملة'),
  noSpecialTransaction: L('No special transaction type', 'لا يوجد نوع معاملة خاص'),
  lines: L('Lines', 'البنود'),
  line: L('#', 'رقم'),
  item: L('Item', 'الصنف'),
  quantity: L('Quantity', 'الكمية'),
  unit: L('Unit', 'الوحدة'),
  unitPrice: L('Unit price', 'سعر الوحدة'),
  allowancesCharges: L('Discounts and charges', 'الخصومات والرسوم'),
  taxCategory: L('Tax category', 'فئة الضريبة'),
  rate: L('Rate', 'النسبة'),
  net: L('Net amount', 'المبلغ الصافي'),
  lineVat: L('VAT', 'الضريبة'),
  allowance: L('Discount', 'خصم'),
  charge: L('Charge', 'رسم'),
  documentAllowancesCharges: L('Document discounts and charges', 'خصومات ورسوم المستند'),
  vatBreakdown: L('VAT breakdown', 'تفاصيل ضريبة القيمة المضافة'),
  taxableAmount: L('Taxable amount', 'المبلغ الخاضع للضريبة'),
  vatAmount: L('VAT amount', 'مبلغ الضريبة'),
  exemptionReason: L('Exemption reason', 'سبب الإعفاء'),
  totals: L('Totals', 'الإجماليات'),
  sumOfLines: L('Sum of line net amounts', 'مجموع صافي البنود'),
  allowanceTotal: L('Document discounts', 'خصومات المستند'),
  chargeTotal: L('Document charges', 'رسوم المستند'),
  totalExclVat: L('Total excluding VAT', 'الإجمالي غير شامل الضريبة'),
  totalVat: L('Total VAT', 'إجمالي ضريبة القيمة المضافة'),
  totalInclVat: L('Total including VAT', 'الإجمالي شامل الضريبة'),
  prepaid: L('Paid in advance', 'المبلغ المدفوع مسبقاً'),
  rounding: L('Rounding', 'التقريب'),
  payable: L('Amount due', 'المبلغ المستحق'),
  vatInAccountingCurrency: L('VAT in accounting currency', 'الضريبة بعملة المحاسبة'),
  payment: L('Payment', 'الدفع'),
  paymentMeans: L('Payment means', 'طريقة الدفع'),
  paymentTerms: L('Payment terms', 'شروط الدفع'),
  account: L('Account', 'الحساب'),
  paymentId: L('Payment reference', 'مرجع الدفع'),
  notes: L('Notes', 'ملاحظات'),
  deliveryEvidence: L('Delivery evidence', 'إثبات التسليم'),
  submissionId: L('ASP submission id', 'رقم الإرسال لدى مزود الخدمة'),
  ackRef: L('Acknowledgement reference', 'مرجع الإقرار'),
  status: L('Status', 'الحالة'),
  sha256: L('SHA-256 of the XML', 'بصمة SHA-256 للملف'),
  generatedFrom: L('Rendered from the PINT-AE XML as delivered', 'نسخة مقروءة من ملف PINT-AE المرسل'),
  arabicFromRecord: L('Arabic legal name from the invoice record (the XML carries none)', 'الاسم القانوني بالعربية من سجل الفاتورة'),
  findings: L('Validation findings', 'نتائج التحقق'),
  noFindings: L('No findings', 'لا توجد ملاحظات'),
} as const;

export type LabelKey = keyof typeof LABELS;

/** UNCL1001 document types used by PINT-AE billing and self-billing. */
export const DOCUMENT_TYPES: Readonly<Record<string, Bilingual>> = {
  '380': L('Tax invoice', 'فاتورة ضريبية'),
  '480': L('Commercial invoice (out of scope of tax)', 'فاتورة تجارية (خارج نطاق الضريبة)'),
  '389': L('Self-billed tax invoice', 'فاتورة ضريبية بالفوترة الذاتية'),
  '381': L('Tax credit note', 'إشعار دائن ضريبي'),
  '81': L('Credit note related to goods or services', 'إشعار دائن متعلق بالسلع أو الخدمات'),
  '261': L('Self-billed credit note', 'إشعار دائن بالفوترة الذاتية'),
};

/** BTAE-02 positions 1 to 8 (codelists/transactiontype.gc). */
export const TRANSACTION_FLAGS: readonly Bilingual[] = [
  L('Free trade zone', 'منطقة حرة'),
  L('Deemed supply', 'توريد مفترض'),
  L('Profit margin scheme', 'نظام هامش الربح'),
  L('Summary invoice', 'فاتورة ملخصة'),
  L('Continuous supply', 'توريد مستمر'),
  L('Disclosed agent billing', 'فوترة الوكيل'),
  L('Supply through e-commerce', 'توريد عبر التجارة الإلكترونية'),
  L('Exports', 'تصدير'),
];

/** Tax categories (codelists/Aligned-TaxCategoryCodes.gc). */
export const TAX_CATEGORIES: Readonly<Record<string, Bilingual>> = {
  S: L('Standard rate', 'النسبة الأساسية'),
  Z: L('Zero rated', 'خاضع لنسبة الصفر'),
  E: L('Exempt', 'معفى'),
  O: L('Out of scope', 'خارج نطاق الضريبة'),
  AE: L('Reverse charge', 'احتساب عكسي'),
};

/** Credit-note reasons (codelists/CreditReason.gc), Decree-Law Article 61(1)(a) to (e). */
export const CREDIT_REASONS: Readonly<Record<string, Bilingual>> = {
  'DL8.61.1.A': L('The supply was cancelled', 'إلغاء التوريد'),
  'DL8.61.1.B': L('The tax treatment changed with the nature of the supply', 'تغير المعاملة الضريبية بسبب تغير طبيعة التوريد'),
  'DL8.61.1.C': L('The agreed consideration was altered', 'تعديل المقابل المتفق عليه'),
  'DL8.61.1.D': L('Goods or services returned', 'إرجاع السلع أو الخدمات'),
  'DL8.61.1.E': L('Tax charged or treatment applied in error', 'احتساب الضريبة أو تطبيق المعاملة خطأً'),
  VD: L('Volume discount', 'خصم الكمية'),
};

/** Emirates (CountrySubentity of a UAE address, ibr-128-ae). */
export const EMIRATES: Readonly<Record<string, Bilingual>> = {
  AUH: L('Abu Dhabi', 'أبوظبي'),
  DXB: L('Dubai', 'دبي'),
  SHJ: L('Sharjah', 'الشارقة'),
  UAQ: L('Umm Al Quwain', 'أم القيوين'),
  FUJ: L('Fujairah', 'الفجيرة'),
  AJM: L('Ajman', 'عجمان'),
  RAK: L('Ras Al Khaimah', 'رأس الخيمة'),
};

/** Legal registration types (BTAE-15 / BTAE-16 scheme agency ids). */
export const REGISTRATION_TYPES: Readonly<Record<string, Bilingual>> = {
  TL: L('Trade licence', 'الرخصة التجارية'),
  EID: L('Emirates ID', 'الهوية الإماراتية'),
  PAS: L('Passport', 'جواز السفر'),
  CD: L('Cabinet decision', 'قرار مجلس الوزراء'),
};

/** Common UN/ECE Rec 20 units; other codes print as the code. */
export const UNITS: Readonly<Record<string, string>> = {
  C62: 'unit', H87: 'piece', EA: 'each', HUR: 'hour', DAY: 'day', MON: 'month', ANN: 'year', KGM: 'kg', MTR: 'm',
  LTR: 'l', MTK: 'm²', MTQ: 'm³', SET: 'set', PR: 'pair', XBX: 'box', KWH: 'kWh', TNE: 't', E48: 'service unit',
};
