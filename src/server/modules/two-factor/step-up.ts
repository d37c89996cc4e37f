import type { FastifyInstance, FastifyRequest, preHandlerHookHandler, RouteOptions } from 'fastify';
import { STEP_UP_FIELDS, type StepUpFields } from '#shared/schemas/two-factor.js';

/**
 * A sensitive change needs a current second factor in the same request when the account has two-factor
 * on (decision 0205). Routes say so where they are declared, `config: { auth: 'user', stepUp: true }`,
 * or with a function when only some requests are sensitive (a webhook's URL changing, not its events).
 */
export type StepUpRequirement = true | ((request: FastifyRequest) => boolean | Promise<boolean>);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The change needs the second factor in the same request when two-factor is on (decision 0205). */
    stepUp?: StepUpRequirement;
  }
}

/** Checks the factor of a request (TwoFactorService.verifyStepUp): throws when it is missing or wrong. */
export type StepUpVerifier = (request: { userId: string; sessionId: string; fields: StepUpFields }) => Promise<void>;

/** The object schema's shape behind a body schema (through defaults, optionals, refinements and pipes). */
function objectShape(schema: unknown, depth = 0): Record<string, unknown> | null {
  const def = (
    schema as
      { _zod?: { def?: { type?: string; shape?: Record<string, unknown>; innerType?: unknown; in?: unknown; out?: unknown } } } | undefined
  )?._zod?.def;
  if (!def || depth > 10) return null;
  if (def.type === 'object') return def.shape ?? null;
  for (const inner of [def.innerType, def.in, def.out]) {
    const shape = inner ? objectShape(inner, depth + 1) : null;
    if (shape) return shape;
  }
  return null;
}

/** Whether a route's body schema carries the shared step-up fields (the same schema objects). */
export function carriesStepUpFields(body: unknown): boolean {
  const shape = objectShape(body);
  return Boolean(
    shape && shape.twoFactorCode === STEP_UP_FIELDS.twoFactorCode && shape.twoFactorAssertion === STEP_UP_FIELDS.twoFactorAssertion,
  );
}

/**
 * Installs the step-up check on every route declared afterwards with `config.stepUp`: a `preHandler`
 * (the body is parsed and validated by then, the session checked), before the route's own ones. A route
 * whose body schema lacks the shared fields stops the app from starting. The verifier comes from the
 * two-factor module (`use`); until then every such route refuses (fails closed).
 */
export function registerStepUpCheck(app: FastifyInstance): { use(verify: StepUpVerifier): void } {
  let verifier: StepUpVerifier | null = null;
  app.addHook('onRoute', (route: RouteOptions) => {
    const requirement = (route.config as { stepUp?: StepUpRequirement } | undefined)?.stepUp;
    if (!requirement) return;
    if (!carriesStepUpFields(route.schema?.body)) {
      throw new Error(`${String(route.method)} ${route.url} is declared stepUp but its body schema does not spread STEP_UP_FIELDS`);
    }
    const auth = (route.config as { auth?: string }).auth;
    if (auth !== 'user' && auth !== 'staff' && auth !== 'admin') {
      throw new Error(`${String(route.method)} ${route.url} is declared stepUp but does not require a signed-in user`);
    }
    const check: preHandlerHookHandler = (request, _reply, done) => {
      void (async () => {
        if (requirement !== true && !(await requirement(request))) return;
        const caller = request.auth;
        if (!caller?.userId) throw new Error('step-up check without a signed-in user');
        if (!verifier) throw new Error('step-up check used before the two-factor module installed its verifier');
        const body = (request.body ?? {}) as StepUpFields;
        await verifier({
          userId: caller.userId,
          sessionId: caller.sessionId,
          fields: { twoFactorCode: body.twoFactorCode, twoFactorAssertion: body.twoFactorAssertion },
        });
      })().then(() => done(), done);
    };
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [check, ...own];
  });
  return {
    use(verify) {
      verifier = verify;
    },
  };
}
