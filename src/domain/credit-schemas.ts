// Bodies and queries of the credit endpoints (admin and Partner API), checked by validate().
import Joi from 'joi';
import { MAX_TOPUP } from './credits';

export interface CreditTopUp {
  amount: number;
}

export const creditTopUpSchema = Joi.object<CreditTopUp>({
  amount: Joi.number()
    .strict() // "10" is a mistake in a JSON body, not a number to coerce
    .integer()
    .min(1)
    .max(MAX_TOPUP)
    .required()
    .messages({
      'number.base': 'amount must be a whole number of credits as a JSON number (100, not "100")',
      'number.integer': 'amount must be a whole number of credits (100, not 100.5)',
      'number.min': 'amount must be at least 1 credit',
      'number.max': `amount must be at most ${MAX_TOPUP} credits per top-up`,
    }),
});

export interface CreditsQuery {
  limit: number;
}

/** How many ledger entries to show, newest first. */
export const creditsQuerySchema = Joi.object<CreditsQuery>({
  limit: Joi.number().integer().min(1).max(100).default(20),
});
