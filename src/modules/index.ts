import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../app.js';
import { listsModule } from './lists/routes.js';

export interface ModuleOptions {
  deps: AppDeps;
}

/** Every resource family is one encapsulated plugin with its prefix; adding a pillar is one line here. */
export const modules: { prefix: string; plugin: FastifyPluginAsync<ModuleOptions> }[] = [
  { prefix: '/v1/lists', plugin: listsModule },
];
