// Everything in one process, the API and the jobs: what `npm start` runs (see process-roles.ts).
import { runProcess } from './process-roles.ts';

await runProcess({ http: true, jobs: true });
