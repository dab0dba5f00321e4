import { ENGINE_MARKER_FAMILIES } from './engine-markers-families.ts';
import { type Marker, markersIn, triggersOf } from './rules.ts';
import type { Extractor } from './types.ts';

/** Words that show which system or platform wrote a line. Each marker is specific to its system. */
export const MARKERS: readonly Marker[] = [
  {
    kind: 'engine.glue',
    triggers: ['glue', 'g.1x', 'g.2x', 'g.4x', 'g.8x', 'g.025x', 'dynamicframe', '/opt/amazon/'],
    // EMR and plain Spark often use the Glue Data *Catalog* as their metastore (AWSGlueDataCatalog...,
    // com.amazonaws.glue.catalog, aws-glue-datacatalog-*.jar): that is not a Glue job, so none of
    // these patterns may match it.
    re: /\bawsglue\b|\bGlueContext\b|com\.amazonaws\.services\.glue|\bglue_user\b|\baws-glue\b(?!-datacatalog)|\bAWS Glue\b(?! Data Catalog)|\bGlue (?:job|ETL|version|worker)|\bglueetl\b|\bglue\.driver\.|\/tmp\/glue|\bG\.[1248]X\b|\bG\.025X\b|\bglue-assembly\b|DynamicFrame\b|\bGlue\w*(?:Logger|JobRunner|ArgParser)\b|\/opt\/amazon\/|\bAWSGlueETL/i,
  },
  // Glue's own classes as its logs abbreviate them ("glue.ProcessLauncher"); case-sensitive so that
  // a lower-case package such as glue.catalog does not count.
  { kind: 'engine.glue', triggers: ['glue.'], re: /\bglue\.(?!catalog)[A-Z]\w+/ },
  {
    kind: 'engine.spark',
    triggers: [
      'spark',
      'executorlost',
      'tasksetmanager',
      'dagscheduler',
      'blockmanager',
      'yarn',
      'dispatcher-event-loop',
      'py4jjavaerror',
      'databricks',
      'task launch worker',
    ],
    re: /org\.apache\.spark|\bpyspark\b|\bSparkContext\b|\bSparkSession\b|\bspark\.(?:driver|executor|yarn|sql|memory|kubernetes|dynamicAllocation)\.|\bExecutorLostFailure\b|\bTaskSetManager\b|\bDAGScheduler\b|\bBlockManager(?:Master)?\b|\bsparkStaging\b|\bspark-submit\b|\bYarn(?:Cluster|Client)?Scheduler(?:Backend)?\b|\bsparklyr\b|\bspark-shell\b|\bSpark\w*(?:Exception|Handler|Context|Session|Conf|Submit)\b|\b[Ss]park\b|\bdispatcher-event-loop\b|\bPy4JJavaError\b|com\.databricks\.|\bDatabricks\b|Executor task launch worker/,
  },
  // Spark known from its own classes and log lines alone: the executor's backend, the task lines
  // ("Exception in task 69.0 in stage 95.0 (TID 916)"), the OOM hook Spark adds to its YARN executors.
  {
    kind: 'engine.spark',
    triggers: [
      'coarsegrainedexecutorbackend',
      '(tid ',
      'onoutofmemoryerror=',
      'sparkoutofmemoryerror',
      'py4j',
      'yarnallocator',
      'executorpods',
      'taskschedulerimpl',
      'executor with id',
      'api gave the following',
      'lost executor',
      'final app status',
      'user class threw',
    ],
    re: /\bCoarseGrainedExecutorBackend\b|\bin stage \d{1,9}\.\d{1,4} \(TID \d{1,12}\b|OnOutOfMemoryError=['"]?kill %p|\bSparkOutOfMemoryError\b|\bPy4J(?:Network)?Error\b|\bpy4j\.(?:protocol|java_gateway)\b|\bYarnAllocator\b|\bExecutorPods(?:Allocator|LifecycleManager)\b|\bTaskSchedulerImpl\b|\bThe executor with id \d{1,9} (?:exited|was deleted)|\bThe API gave the following (?:brief reason|message|container statuses)|\bLost executor \d{1,9} on\b|\bFinal app status: [A-Z]{4,10}, exitCode: -?\d{1,3}|\bUser class threw exception:/,
  },
  {
    kind: 'engine.flink',
    triggers: ['flink', 'taskmanager', 'jobmanager', 'taskexecutor', 'noresourceavailable'],
    re: /org\.apache\.flink|\bflink\b|^\s*(?:task|job)manager[_-]?\d*\s+\||\bTaskExecutor\b|\btaskmanager\.(?:memory|numberOfTaskSlots)|\bjobmanager\.(?:memory|log)|\btaskmanager\.log\b|\bNoResourceAvailableException\b|\bTaskManagerRunner\b/i,
  },
  // docker compose names a Flink service's container when it exits: "flink_taskmanager_1 exited with code 137".
  {
    kind: 'engine.flink',
    triggers: ['manager_', 'manager-'],
    re: /\b(?:flink[_-])?(?:task|job)manager[_-]\d{1,3} exited with code\b/i,
  },
  {
    kind: 'engine.beam-python',
    triggers: ['beam', 'sdk', 'direct_runner'],
    re: /\bapache_beam\b|\bbeam_runner\b|\brun_beam\.py\b|\bsdk_worker(?:_main)?\b|unable to receive additional data from SDK|\bsdk-\d+-\d+\b|--direct_runner_bundle_repeat|\bpython -m apache_beam/i,
  },
  {
    kind: 'engine.beam-java',
    triggers: ['beam', 'com.google.cloud.dataflow'],
    re: /org\.apache\.beam\.|com\.google\.cloud\.dataflow\.(?:worker|sdk)\./,
  },
  {
    kind: 'engine.mapreduce',
    triggers: ['mrappmaster', 'mapred'],
    re: /\bMRAppMaster\b|org\.apache\.hadoop\.mapred|\byarn\.app\.mapreduce\b|\bmapreduce\.(?:map|reduce)\.memory/,
  },
  {
    kind: 'runtime.python',
    triggers: ['traceback', '.py"'],
    re: /^\s*Traceback \(most recent call last\)|^\s*File "[^"]{1,300}\.py", line \d+/,
  },
  {
    kind: 'runtime.jvm',
    triggers: ['java', 'scala', '.kt:'],
    re: /^\s*at [\w$.]+\([\w$]+\.(?:java|scala|kt):\d+\)|\bjava\.lang\.\w+(?:Error|Exception)\b/,
  },
  {
    kind: 'platform.yarn',
    triggers: ['container_', 'yarn', 'application_', 'nodemanager'],
    re: /\bcontainer_(?:e\d+_)?\d+_\d+_\d+_\d+\b|\bYARN\b|\bYarn[A-Z]\w+|\bapplication_\d{10,}_\d+\b|\bNodeManager\b/,
  },
  {
    kind: 'platform.kubernetes',
    triggers: ['kubernetes', 'kubectl', 'kubelet', 'oomkilled', 'k8s', 'pod/'],
    re: /\bkubernetes\b|\bkubectl\b|\bkubelet\b|\bOOMKilled\b|\bk8s\b|\bpod\/[\w-]+/i,
  },
  {
    kind: 'platform.emr',
    triggers: ['emr', '/mnt/yarn/', 'compute.internal'],
    re: /\bEMR\b|amazon-emr|\/mnt\/yarn\/|\.compute\.internal\b/,
  },
  {
    kind: 'platform.databricks',
    triggers: ['databricks', 'dbr ', 'kernel is unresponsive'],
    re: /\bdatabricks\b|\bDBR \d|com\.databricks\.|\bThe Python kernel is unresponsive\b/i,
  },
  // A Databricks notebook's Python process is the Spark driver's REPL.
  { kind: 'engine.spark', triggers: ['kernel is unresponsive'], re: /\bThe Python kernel is unresponsive\b/ },
  {
    kind: 'platform.dataflow',
    triggers: ['dataflow', 'worker vm', 'work item'],
    re: /\bDataflow(?:Runner)?\b|\bworker VM\b|dataflow\.googleapis|a work item (?:has failed|was attempted) \d+ times/i,
  },
];

const { triggers, triggerKinds } = triggersOf(MARKERS);

/** Which engine (Glue, Spark, Flink, Beam, MapReduce) and platform (YARN, K8s, EMR...) wrote the input. */
export const engineMarkers: Extractor = {
  id: 'engine-markers',
  description:
    'Markers of the engine (Glue, Spark, Flink, Beam Python/Java, MapReduce), runtime and platform',
  triggers,
  triggerKinds,
  extract: (line, wanted) => markersIn(MARKERS, line, wanted),
  families: ENGINE_MARKER_FAMILIES,
  patterns: MARKERS.map((marker) => marker.re),
};
