// The file tools, in the order they are offered to the model.
import { editFileTool } from './editFile';
import { findFilesTool } from './findFiles';
import { listDirTool } from './listDir';
import { makeDirectoryTool } from './makeDirectory';
import { readFileTool } from './readFile';
import { searchFilesTool } from './searchFiles';
import type { AnyTool } from './types';
import { writeFileTool } from './writeFile';

export const fileTools: AnyTool[] = [readFileTool, listDirTool, writeFileTool, editFileTool, makeDirectoryTool, searchFilesTool, findFilesTool];
