/** Lists every governance type file; importing them registers their types and fields on the builder. */
import './refs.js';
import './kind.js';
import './common.js';
import './entity.js';
import './entity-type.js';
import './entity-summary.js';
import './entity-links.js';
import './entity-mutations.js';
import './link-type.js';
import './link-end.js';
import './link.js';
import './link-mutations.js';
import './workflow.js';
import './attribute.js';
import './discovery.js';
import './live.js';
