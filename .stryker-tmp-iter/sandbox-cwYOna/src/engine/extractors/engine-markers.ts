// @ts-nocheck
import { type Marker, markersIn } from './rules.ts';
import type { Extractor } from './types.ts';

/** Words that show which system or platform wrote a line. Each marker is specific to its system. */
const MARKERS: readonly Marker[] = [
  {
    kind: 'engine.glue',
    gate: /glue|G\.\d|G\.025|DynamicFrame|\/opt\/amazon/i,
    // EMR and plain Spark often use the Glue Data *Catalog* as their metastore (AWSGlueDataCatalog...,
    // com.amazonaws.glue.catalog, aws-glue-datacatalog-*.jar): that is not a Glue job, so none of
    // these patterns may match it.
    re: /\bawsglue\b|\bGlueContext\b|com\.amazonaws\.services\.glue|\bglue_user\b|\baws-glue\b(?!-datacatalog)|\bAWS Glue\b(?! Data Catalog)|\bGlue (?:job|ETL|version|worker)|\bglueetl\b|\bglue\.driver\.|\/tmp\/glue|\bG\.[1248]X\b|\bG\.025X\b|\bglue-assembly\b|DynamicFrame\b|\bGlue\w*(?:Logger|JobRunner|ArgParser)\b|\/opt\/amazon\/|\bAWSGlueETL/i,
  },
  // Glue's own classes as its logs abbreviate them ("glue.ProcessLauncher"); case-sensitive so that
  // a lower-case package such as glue.catalog does not count.
  { kind: 'engine.glue', gate: /glue\./, re: /\bglue\.(?!catalog)[A-Z]\w+/ },
  {
    kind: 'engine.spark',
    re: /org\.apache\.spark|\bpyspark\b|\bSparkContext\b|\bSparkSession\b|\bspark\.(?:driver|executor|yarn|sql|memory|kubernetes|dynamicAllocation)\.|\bExecutorLostFailure\b|\bTaskSetManager\b|\bDAGScheduler\b|\bBlockManager(?:Master)?\b|\bsparkStaging\b|\bspark-submit\b|\bYarn(?:Cluster|Client)?Scheduler(?:Backend)?\b|\bsparklyr\b|\bspark-shell\b|\bSpark\w*(?:Exception|Handler|Context|Session|Conf|Submit)\b|\b[Ss]park\b|\bdispatcher-event-loop\b|\bPy4JJavaError\b|com\.databricks\.|\bDatabricks\b|Executor task launch worker/,
  },
  {
    kind: 'engine.flink',
    re: /org\.apache\.flink|\bflink\b|^\s*(?:task|job)manager[_-]?\d*\s+\||\bTaskExecutor\b|\btaskmanager\.(?:memory|numberOfTaskSlots)|\bjobmanager\.(?:memory|log)|\btaskmanager\.log\b|\bNoResourceAvailableException\b|\bTaskManagerRunner\b/i,
  },
  {
    kind: 'engine.beam-python',
    gate: /beam|sdk|direct_runner/i,
    re: /\bapache_beam\b|\bbeam_runner\b|\brun_beam\.py\b|\bsdk_worker(?:_main)?\b|unable to receive additional data from SDK|\bsdk-\d+-\d+\b|--direct_runner_bundle_repeat|\bpython -m apache_beam/i,
  },
  { kind: 'engine.beam-java', re: /org\.apache\.beam\./ },
  {
    kind: 'engine.mapreduce',
    gate: /map|MRAppMaster/i,
    re: /\bMRAppMaster\b|org\.apache\.hadoop\.mapred|\byarn\.app\.mapreduce\b|\bmapreduce\.(?:map|reduce)\.memory/,
  },
  {
    kind: 'runtime.python',
    re: /^\s*Traceback \(most recent call last\)|^\s*File "[^"]{1,300}\.py", line \d+/,
  },
  {
    kind: 'runtime.jvm',
    re: /^\s*at [\w$.]+\([\w$]+\.(?:java|scala|kt):\d+\)|\bjava\.lang\.\w+(?:Error|Exception)\b/,
  },
  {
    kind: 'platform.yarn',
    re: /\bcontainer_(?:e\d+_)?\d+_\d+_\d+_\d+\b|\bYARN\b|\bYarn[A-Z]\w+|\bapplication_\d{10,}_\d+\b|\bNodeManager\b/,
  },
  {
    kind: 'platform.kubernetes',
    gate: /k8s|kube|oom|pod\//i,
    re: /\bkubernetes\b|\bkubectl\b|\bOOMKilled\b|\bk8s\b|\bpod\/[\w-]+/i,
  },
  {
    kind: 'platform.emr',
    gate: /emr|\/mnt\/yarn|compute\.internal/i,
    re: /\bEMR\b|amazon-emr|\/mnt\/yarn\/|\.compute\.internal\b/,
  },
  { kind: 'platform.databricks', gate: /databricks|DBR /i, re: /\bdatabricks\b|\bDBR \d|com\.databricks\./i },
  {
    kind: 'platform.dataflow',
    gate: /dataflow|worker VM|work item/i,
    re: /\bDataflow(?:Runner)?\b|\bworker VM\b|dataflow\.googleapis|a work item (?:has failed|was attempted) \d+ times/i,
  },
];

const TRIGGERS = [
  'glue',
  'g.1x',
  'g.2x',
  'g.4x',
  'g.8x',
  'g.025x',
  'spark',
  'executorlost',
  'tasksetmanager',
  'dagscheduler',
  'blockmanager',
  'flink',
  'taskexecutor',
  'taskmanager',
  'jobmanager',
  'noresourceavailable',
  'beam',
  'sdk',
  'mapreduce',
  'mrappmaster',
  'mapred',
  'traceback',
  '.py"',
  'java',
  'scala',
  '.kt:',
  'container_',
  'yarn',
  'application_',
  'nodemanager',
  'kubernetes',
  'kubectl',
  'oomkilled',
  'k8s',
  'pod/',
  'emr',
  'compute.internal',
  'databricks',
  'dynamicframe',
  '/opt/amazon/',
  'dispatcher-event-loop',
  'py4jjavaerror',
  'task launch worker',
  'dbr ',
  'dataflow',
  'work item',
  'worker vm',
];

/** Which engine (Glue, Spark, Flink, Beam, MapReduce) and platform (YARN, K8s, EMR...) wrote the input. */
export const engineMarkers: Extractor = {
  id: 'engine-markers',
  description:
    'Markers of the engine (Glue, Spark, Flink, Beam Python/Java, MapReduce), runtime and platform',
  triggers: TRIGGERS,
  extract: (line, wanted) => markersIn(MARKERS, line, wanted),
};
