/** Lists every calendar type file; `src/app/schema.ts` imports this. */
import './refs.js';
import './common.js';
import './linked-post.js';
import './event-filter.js';
import './event.js';
import './venue.js';
import './organizer.js';
import './term.js';
import './nodes.js';
import './record-inputs.js';
import './event-mutations.js';
import './record-mutations.js';
import './live.js';
