/** zod, pinned: every schema in tma is a zod schema. */
export { z } from "npm:zod@4.6.7";
export type { ZodError, ZodType } from "npm:zod@4.6.7";
