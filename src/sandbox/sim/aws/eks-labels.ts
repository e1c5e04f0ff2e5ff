// What EKS writes on the nodes of a managed node group: the group and image labels every node
// carries, the taint an update puts on the nodes it is about to replace, and the label that takes
// a drained node out of load balancers before it is terminated.
export const NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";
export const NODEGROUP_IMAGE_LABEL = "eks.amazonaws.com/nodegroup-image";
/** On nodes of a group with the customer's launch template: its id and version. */
export const SOURCE_LT_ID_LABEL = "eks.amazonaws.com/sourceLaunchTemplateId";
export const SOURCE_LT_VERSION_LABEL = "eks.amazonaws.com/sourceLaunchTemplateVersion";
export const EXCLUDE_LB_LABEL = "node.kubernetes.io/exclude-from-external-load-balancers";
export const UPDATE_TAINT = {
  key: NODEGROUP_LABEL,
  value: "unschedulable",
  effect: "NoSchedule" as const,
};
