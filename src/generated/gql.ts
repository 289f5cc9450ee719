/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query EventGraph($first: Int!) {\n  events(first: $first) {\n    totalCount\n    nodes {\n      id\n      title\n      startDate\n      venue {\n        id\n        name\n        city\n      }\n      organizers {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery EventDetails($id: ID!) {\n  event(id: $id) {\n    id\n    title\n    startDate\n    endDate\n    allDay\n    categories {\n      id\n      name\n    }\n    tags {\n      id\n      name\n    }\n  }\n}\n\nmutation CreateTag($name: String!) {\n  createTag(input: {name: $name}) {\n    id\n    name\n    slug\n  }\n}": typeof types.EventGraphDocument,
    "query EntityGraph($first: Int!) {\n  entities(kind: AI_SYSTEM, first: $first) {\n    totalCount\n    nodes {\n      id\n      name\n      kind\n      type {\n        name\n      }\n      links(first: 5) {\n        nodes {\n          label\n          counterpart {\n            name\n            kind\n            entity {\n              id\n              name\n              workflowStage {\n                name\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n}\n\nquery EntityDetails($id: ID!) {\n  entity(id: $id) {\n    id\n    number\n    name\n    kind\n    type {\n      id\n      name\n    }\n    workflowStage {\n      name\n    }\n  }\n}\n\nquery EntityTypeList {\n  entityTypes(first: 20) {\n    totalCount\n    nodes {\n      id\n      name\n      enabled\n    }\n  }\n}": typeof types.EntityGraphDocument,
};
const documents: Documents = {
    "query EventGraph($first: Int!) {\n  events(first: $first) {\n    totalCount\n    nodes {\n      id\n      title\n      startDate\n      venue {\n        id\n        name\n        city\n      }\n      organizers {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery EventDetails($id: ID!) {\n  event(id: $id) {\n    id\n    title\n    startDate\n    endDate\n    allDay\n    categories {\n      id\n      name\n    }\n    tags {\n      id\n      name\n    }\n  }\n}\n\nmutation CreateTag($name: String!) {\n  createTag(input: {name: $name}) {\n    id\n    name\n    slug\n  }\n}": types.EventGraphDocument,
    "query EntityGraph($first: Int!) {\n  entities(kind: AI_SYSTEM, first: $first) {\n    totalCount\n    nodes {\n      id\n      name\n      kind\n      type {\n        name\n      }\n      links(first: 5) {\n        nodes {\n          label\n          counterpart {\n            name\n            kind\n            entity {\n              id\n              name\n              workflowStage {\n                name\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n}\n\nquery EntityDetails($id: ID!) {\n  entity(id: $id) {\n    id\n    number\n    name\n    kind\n    type {\n      id\n      name\n    }\n    workflowStage {\n      name\n    }\n  }\n}\n\nquery EntityTypeList {\n  entityTypes(first: 20) {\n    totalCount\n    nodes {\n      id\n      name\n      enabled\n    }\n  }\n}": types.EntityGraphDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query EventGraph($first: Int!) {\n  events(first: $first) {\n    totalCount\n    nodes {\n      id\n      title\n      startDate\n      venue {\n        id\n        name\n        city\n      }\n      organizers {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery EventDetails($id: ID!) {\n  event(id: $id) {\n    id\n    title\n    startDate\n    endDate\n    allDay\n    categories {\n      id\n      name\n    }\n    tags {\n      id\n      name\n    }\n  }\n}\n\nmutation CreateTag($name: String!) {\n  createTag(input: {name: $name}) {\n    id\n    name\n    slug\n  }\n}"): (typeof documents)["query EventGraph($first: Int!) {\n  events(first: $first) {\n    totalCount\n    nodes {\n      id\n      title\n      startDate\n      venue {\n        id\n        name\n        city\n      }\n      organizers {\n        id\n        name\n      }\n    }\n  }\n}\n\nquery EventDetails($id: ID!) {\n  event(id: $id) {\n    id\n    title\n    startDate\n    endDate\n    allDay\n    categories {\n      id\n      name\n    }\n    tags {\n      id\n      name\n    }\n  }\n}\n\nmutation CreateTag($name: String!) {\n  createTag(input: {name: $name}) {\n    id\n    name\n    slug\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query EntityGraph($first: Int!) {\n  entities(kind: AI_SYSTEM, first: $first) {\n    totalCount\n    nodes {\n      id\n      name\n      kind\n      type {\n        name\n      }\n      links(first: 5) {\n        nodes {\n          label\n          counterpart {\n            name\n            kind\n            entity {\n              id\n              name\n              workflowStage {\n                name\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n}\n\nquery EntityDetails($id: ID!) {\n  entity(id: $id) {\n    id\n    number\n    name\n    kind\n    type {\n      id\n      name\n    }\n    workflowStage {\n      name\n    }\n  }\n}\n\nquery EntityTypeList {\n  entityTypes(first: 20) {\n    totalCount\n    nodes {\n      id\n      name\n      enabled\n    }\n  }\n}"): (typeof documents)["query EntityGraph($first: Int!) {\n  entities(kind: AI_SYSTEM, first: $first) {\n    totalCount\n    nodes {\n      id\n      name\n      kind\n      type {\n        name\n      }\n      links(first: 5) {\n        nodes {\n          label\n          counterpart {\n            name\n            kind\n            entity {\n              id\n              name\n              workflowStage {\n                name\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n}\n\nquery EntityDetails($id: ID!) {\n  entity(id: $id) {\n    id\n    number\n    name\n    kind\n    type {\n      id\n      name\n    }\n    workflowStage {\n      name\n    }\n  }\n}\n\nquery EntityTypeList {\n  entityTypes(first: 20) {\n    totalCount\n    nodes {\n      id\n      name\n      enabled\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;