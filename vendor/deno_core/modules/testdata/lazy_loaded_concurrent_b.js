// Copyright 2018-2026 the Deno authors. MIT license.
import { value } from "custom:lazy_shared";
export const b = value;
