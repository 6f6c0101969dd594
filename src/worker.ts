// The jobs alone, no HTTP: `npm run --silent cobro -- worker` (see process-roles.ts).
import { runProcess } from './process-roles.ts';

await runProcess({ http: false, jobs: true });
