// What the SKILL.md parser and YAML tests share: a document builder, the two parse modes, result
// unwrappers, and the "billion laughs" alias bomb.
import type { ParsedSkill, ParseOptions, ParseResult } from "../lib/skill/_parse.ts";

/** A document with the given frontmatter lines and body. */
export function doc(frontmatter: readonly string[], body = "Body text."): string {
  return `---\n${frontmatter.join("\n")}\n---\n${body}`;
}

/** The parsed skill of a result that must have succeeded. */
export function parsed(result: ParseResult): ParsedSkill {
  if (!result.ok) throw new Error(`expected success, got failure: ${result.message}`);
  return result.skill;
}

/** The message of a result that must have failed. */
export function failure(result: ParseResult): string {
  if (result.ok) throw new Error(`expected failure, got skill ${JSON.stringify(result.skill)}`);
  return result.message;
}

/** Strict parsing with a fallback name. */
export const strict: ParseOptions = { fallbackName: "fallback", lenient: false };

/** Lenient parsing with a fallback name. */
export const lenient: ParseOptions = { fallbackName: "fallback", lenient: true };

/** A YAML alias bomb: nine levels of nine aliases each (9^9 nodes once expanded). */
export const BILLION_LAUGHS: readonly string[] = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
  "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
  "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
  "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
  "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]",
  "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]",
  "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]",
];

// Real-world frontmatters, each from a public repository at a stated commit. From
// K-Dense-AI/claude-scientific-skills @ 899a51bfbd63218153b272c9459dcb4a7ae88da6
// (MIT License, Copyright (c) 2025 K-Dense Inc.): scientific-skills/database-lookup/SKILL.md
// (a description of 1,929 characters) and scientific-skills/citation-management/SKILL.md.

/** The description of K-Dense `database-lookup`: longer than the 1024 characters allowed. */
export const DATABASE_LOOKUP_DESCRIPTION: string = [
  "Search 78 public scientific, biomedical, materials science, and economic databases via ",
  "their REST APIs and return structured JSON results. Covers physics/astronomy (NASA, ",
  "NIST, SDSS, SIMBAD, Exoplanet Archive), earth/environment (USGS, NOAA, EPA, ",
  "OpenWeatherMap), chemistry/drugs (PubChem, ChEMBL, DrugBank, FDA, KEGG, DailyMed, ZINC, ",
  "BindingDB), materials science (Materials Project, COD), biology/genomics (Reactome, ",
  "BRENDA, UniProt, STRING, Ensembl, NCBI Gene, GEO, GTEx, PDB, AlphaFold, InterPro, ",
  "ChEBI, BioGRID, Gene Ontology, QuickGO, NCBI Protein/Taxonomy, dbSNP, SRA, ENA, gnomAD, ",
  "UCSC Genome, ENCODE, JASPAR, MouseMine, PRIDE, LINCS L1000, Human Protein Atlas, Human ",
  "Cell Atlas, RummaGEO, Metabolomics Workbench, EMDB, Addgene), disease/clinical (COSMIC, ",
  "Open Targets, ClinPGx, ClinicalTrials.gov, OMIM, ClinVar, GDC/TCGA, cBioPortal, ",
  "DisGeNET, GWAS Catalog, Monarch, HPO), regulatory (FDA, USPTO, SEC EDGAR), ",
  "economics/finance (FRED, BEA, BLS, Federal Reserve, World Bank, ECB, US Treasury, Alpha ",
  "Vantage, Data Commons), and demographics (US Census, Eurostat, WHO). Use this skill ",
  "whenever the user wants to look up compounds, drugs, proteins, genes, pathways, ",
  "enzymes, gene expression, variants, clinical trials, patents, SEC filings, economic ",
  "indicators, crystal structures, astronomical objects, earthquakes, weather, or any data ",
  "from a public database API. Also trigger when the user mentions any database by name or ",
  "asks about molecular properties, drug-target interactions, binding affinities, protein ",
  "interactions, pathway membership, pharmacogenomics, economic time series, materials ",
  "properties, commercially available compounds, virtual screening, compound ",
  "purchasability, chemical libraries, building blocks, cancer genomics, somatic ",
  "mutations, tumor mutation profiles, nucleotide sequences, genome assemblies, sequencing ",
  "reads, ENA accessions, INSDC data, or wants to cross-reference entities across sources.",
].join("");

/** K-Dense `database-lookup`'s frontmatter lines, as published. */
export const DATABASE_LOOKUP: readonly string[] = [
  "name: database-lookup",
  `description: ${DATABASE_LOOKUP_DESCRIPTION}`,
  "metadata:",
  "  skill-author: K-Dense Inc.",
];

/** K-Dense `citation-management`'s frontmatter lines, as published (four-space `metadata`). */
export const CITATION_MANAGEMENT: readonly string[] = [
  "name: citation-management",
  "description: Comprehensive citation management for academic research. Search Google " +
  "Scholar and PubMed for papers, extract accurate metadata, validate citations, and generate " +
  "properly formatted BibTeX entries. This skill should be used when you need to find papers, " +
  "verify citation information, convert DOIs to BibTeX, or ensure reference accuracy in " +
  "scientific writing.",
  "allowed-tools: Read Write Edit Bash",
  "license: MIT License",
  "metadata:",
  "    skill-author: K-Dense Inc.",
];

/**
 * The Agent Skills client implementation guide's example of the most common malformed
 * frontmatter (agentskills/agentskills, docs/client-implementation/adding-skills-support.mdx,
 * "Handling malformed YAML"; documentation under CC-BY-4.0): a plain value holding `: `.
 */
export const GUIDE_COLON_LINE = "description: Use this skill when: the user asks about PDFs";
