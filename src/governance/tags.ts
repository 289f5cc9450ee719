/**
 * Governance cache tags: an answer is tagged with the records and lists it read, and a write drops
 * exactly what it may have changed (`invalidates` of each write in `client.ts`).
 */
export const Tags = {
  entity: (id: string) => `governance:entity:${id}`,
  entityType: (id: string) => `governance:entity-type:${id}`,
  link: (id: string) => `governance:link:${id}`,
  links: (entityId: string) => `governance:links:${entityId}`,
  entityLists: 'governance:list:entities',
  entityTypeLists: 'governance:list:entity-types',
  linkLists: 'governance:list:links',
} as const;
